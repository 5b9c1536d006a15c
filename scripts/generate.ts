import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

/**
 * `npm run generate`: every generator of the repository, in the order their outputs feed each
 * other. Each generated file says so in its first lines and is marked in `.gitattributes`; each has
 * a staleness test in `npm run test:unit`.
 * - `scripts/route-index.ts`: each group's `functions/<group>/route-index.ts` (the lazy route index);
 * - `scripts/jql-parser.ts`: the JQL parser from its peggy grammar;
 * - `scripts/openapi.ts`: `dist/openapi.json` and the typed client's `client/operations.ts`.
 */
const ROOT = resolve(__dirname, '..');
const GENERATORS = ['route-index.ts', 'jql-parser.ts', 'openapi.ts'];

for (const script of GENERATORS) {
  process.stdout.write(`== scripts/${script}\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', script)], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
