import type { CommandSpec } from '../spec';

/** The command groups over the API (repo, pr, issue…), each thin over the typed client. */
export const GROUP_COMMANDS: CommandSpec[] = [];
