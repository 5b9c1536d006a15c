import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routeGroups } from '../lib/route-groups';
import { workers } from '../lib/workers';
import { assertNeedsEnv, envOfNeeds, NEED_ENV, type Need } from '../shared/kernel/needs';

/**
 * The environment contract (shared/kernel/needs.ts): each need's variables are declared once; the local
 * platform sets every one of them under that name (it once set AGENT_QUEUE_URL where AWS set
 * AGENT_JOBS_QUEUE_URL), and a missing one stops the start, named. On AWS the synthesis holds it
 * (lib/aws/grants.ts; test/infra).
 */
const root = join(__dirname, '..');

test('the local platform sets every local variable of every need, by its declared name', () => {
  const local = readFileSync(join(root, 'bin', 'local.ts'), 'utf8');
  // The names bin/local.ts sets in the handlers' environment (`NAME: value`).
  const set = new Set([...local.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]));
  const declared = envOfNeeds(Object.keys(NEED_ENV) as Need[], 'local');
  expect(declared.filter((name) => !set.has(name))).toEqual([]);
});

test('every need a route group or a worker lists is declared', () => {
  for (const need of [...routeGroups, ...workers].flatMap((x) => x.needs)) expect(NEED_ENV).toHaveProperty(need);
});

test('a missing variable stops the start, named; an empty one counts as missing', () => {
  expect(() => assertNeedsEnv('The probe', ['table', 'queue'], 'local', { TABLE_NAME: 't' })).toThrow(
    'The probe cannot start: AGENT_JOBS_QUEUE_URL is not set.',
  );
  expect(() => assertNeedsEnv('The probe', ['builds'], 'aws', { BUILD_PROJECT: '' })).toThrow(
    'The probe cannot start: BUILD_PROJECT, BUILD_LOG_GROUP are not set.',
  );
  expect(() => assertNeedsEnv('The probe', ['table', 'customerTables'], 'aws', { TABLE_NAME: 't' })).not.toThrow();
});
