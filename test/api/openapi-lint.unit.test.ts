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

describe('redocly lint', () => {
  it('passes the generated document with no warning, offline', () => {
    const res = lint(join(dir, 'openapi.json'));
    expect(res.problems).toEqual([]);
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
    expect(res.problems.map((p) => p.split(' ')[0]).sort()).toEqual([
      'info-contact',
      'info-license',
      'no-server-example.com',
      'parameter-description',
    ]);
    expect(res.stderr).not.toContain('offline:');
  });
});
