import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { OpenApiDocument } from '../../lib/openapi';
import { writeOpenApi } from '../../scripts/openapi';

/**
 * The generated document through a third-party linter, as a newcomer's tools read it: Redocly
 * CLI with its recommended rules plus a contact and every parameter, operation and tag described
 * (test/api/redocly.yaml), spawned on the file `npm run build` writes. No warning passes. Offline:
 * telemetry and update checks off, and any connection off this machine fails (offline.cjs).
 */
const PACKAGE = dirname(require.resolve('@redocly/cli/package.json'));
const BIN = join(
  PACKAGE,
  (JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { bin: { redocly: string } }).bin.redocly,
);
const CONFIG = join(__dirname, 'redocly.yaml');
const OFFLINE = join(__dirname, 'offline.cjs');

let dir: string;
let doc: OpenApiDocument;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  doc = await writeOpenApi(join(dir, 'openapi.json'));
});

interface Problem {
  ruleId: string;
  message: string;
  location: { pointer: string }[];
}

function lint(file: string): { code: number | null; problems: string[]; stderr: string } {
  const r = spawnSync(
    process.execPath,
    ['--require', OFFLINE, BIN, 'lint', file, '--config', CONFIG, '--format', 'json'],
    {
      cwd: dir,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
      },
      timeout: 50_000,
    },
  );
  if (r.error) throw r.error;
  const report = JSON.parse(r.stdout) as { problems: Problem[] };
  return {
    code: r.status,
    problems: report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`),
    stderr: r.stderr,
  };
}

/**
 * Redocly's no-ambiguous-paths: the spec's tracker paths put an issue (`/issues/{issueKey}/…`) beside
 * the spaces (`/issues/spaces/{spaceKey}/…`), so a path like `/issues/spaces/comments` fits both
 * shapes. The router takes literal segments first and no issue key is `spaces` (an issue is named by
 * its key, `ABC-12`, or its id), so each such path reaches one route: these pairs, and only these,
 * are expected (docs/api-reference.md).
 */
const TRACKER = '/v1/orgs/{orgId}/issues';
const expectedAmbiguity = (problem: string) => {
  const pair = /Found two ambiguous paths: `([^`]+)` and `([^`]+)`/.exec(problem);
  if (!problem.startsWith('no-ambiguous-paths ') || !pair) return false;
  const paths = [pair[1], pair[2]] as string[];
  return (
    paths.some((p) => p.startsWith(`${TRACKER}/spaces/{spaceKey}`)) &&
    paths.some((p) => p.startsWith(`${TRACKER}/{issueKey}/`))
  );
};

describe('redocly lint', () => {
  it('passes the generated document with no warning but the tracker paths the spec names, offline', () => {
    const res = lint(join(dir, 'openapi.json'));
    expect(res.problems.filter((p) => !expectedAmbiguity(p))).toEqual([]);
    // The rule is on: it finds those.
    expect(res.problems.length).toBeGreaterThan(0);
    // Warnings only: the exit code is 0.
    expect(res.code).toBe(0);
    expect(res.stderr).not.toContain('offline:');
  });

  it('would warn without a license, a contact, a parameter description, or with a localhost server', () => {
    const worse = JSON.parse(JSON.stringify(doc)) as {
      info: Record<string, unknown>;
      servers: unknown[];
      paths: Record<string, Record<string, { parameters: Record<string, unknown>[] }>>;
    };
    delete worse.info.license;
    delete worse.info.contact;
    worse.servers = [{ url: 'http://localhost:3000' }];
    delete worse.paths['/v1/orgs/{orgId}/projects']?.get?.parameters[0]?.description;
    const file = join(dir, 'worse.json');
    writeFileSync(file, JSON.stringify(worse, null, 2));
    const res = lint(file);
    expect(
      res.problems
        .filter((p) => !expectedAmbiguity(p))
        .map((p) => p.split(' ')[0])
        .sort(),
    ).toEqual(['info-contact', 'info-license', 'no-server-example.com', 'parameter-description']);
    expect(res.stderr).not.toContain('offline:');
  });
});
