import type { CommandSpec } from '../spec';
import { OTHER_COMMANDS } from './other';
import { REPO_COMMANDS } from './repos';

/** The command groups over the API (repo, pr, issue…), each thin over the typed client. */
export const GROUP_COMMANDS: CommandSpec[] = [...REPO_COMMANDS, ...OTHER_COMMANDS];
