import type { CommandSpec } from '../spec';
import { DATA_COMMANDS } from './data';
import { OTHER_COMMANDS } from './other';
import { REPO_COMMANDS } from './repos';
import { WEBHOOK_COMMANDS } from './webhooks';

/** The command groups over the API (repo, pr, issue…), each thin over the typed client. */
export const GROUP_COMMANDS: CommandSpec[] = [
  ...REPO_COMMANDS,
  ...DATA_COMMANDS,
  ...OTHER_COMMANDS,
  ...WEBHOOK_COMMANDS,
];
