import { requireEnv } from '../../../kernel/ground/env';
import { describeError, log } from '../../../kernel/ground/log';
import { runImport, stopRunningImport } from './job';

/**
 * The import job's program: what the local builder runs as a child process and the import's
 * CodeBuild project runs bundled (lib/aws/imports.ts), with `IMPORT_ID` and `ORG_ID` set.
 * SIGTERM (a cancel) ends the running git; the job then removes what it made.
 */
process.once('SIGTERM', stopRunningImport);
runImport(requireEnv('ORG_ID'), requireEnv('IMPORT_ID')).then(
  (state) => {
    log.info('repository import ended', { importId: requireEnv('IMPORT_ID'), state });
    process.exit(state === 'succeeded' ? 0 : 1);
  },
  (err: unknown) => {
    log.error('repository import crashed', { error: describeError(err) });
    process.exit(1);
  },
);
