import type { CommandSpec } from '../spec';
import { AGENT_COMMANDS } from './agents';
import { CALENDAR_COMMANDS } from './calendar';
import { CHECK_COMMANDS } from './checks';
import { DATA_COMMANDS } from './data';
import { DAV_COMMANDS } from './dav';
import { DEPLOYMENT_COMMANDS } from './deployments';
import { MAIL_COMMANDS } from './mail';
import { ORG_COMMANDS } from './orgs';
import { OTHER_COMMANDS } from './other';
import { PAGE_COMMANDS } from './pages';
import { REPO_COMMANDS } from './repos';
import { TRACKER_COMMANDS } from './tracker';
import { WEBHOOK_COMMANDS } from './webhooks';

/** The command groups over the API (repo, pr, issue, track, cal, mail…), each thin over the typed client. */
export const GROUP_COMMANDS: CommandSpec[] = [
  ...DEPLOYMENT_COMMANDS,
  ...REPO_COMMANDS,
  ...CHECK_COMMANDS,
  ...DATA_COMMANDS,
  ...OTHER_COMMANDS,
  ...AGENT_COMMANDS,
  ...WEBHOOK_COMMANDS,
  ...TRACKER_COMMANDS,
  ...CALENDAR_COMMANDS,
  ...DAV_COMMANDS,
  ...MAIL_COMMANDS,
  ...PAGE_COMMANDS,
  ...ORG_COMMANDS,
];
