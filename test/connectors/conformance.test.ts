import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestPlatform } from '../helpers/platform';

/**
 * The MCP conformance suite's OAuth scenarios (`@modelcontextprotocol/conformance client --suite
 * auth`: its MCP servers and authorization servers in each discovery, scope, registration and
 * client authentication variant) against the platform's connectors, ./conformance-client.ts
 * playing the browser through the API for each. What the suite reports is read from its results.
 */
const ROOT = join(__dirname, '..', '..');
const SUITE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
let p: TestPlatform;
let out: string;

beforeAll(async () => {
  process.env.LOCAL_CONNECTORS_LOOPBACK = 'true';
  p = await TestPlatform.start();
  out = mkdtempSync(join(tmpdir(), 'conformance-'));
});
afterAll(async () => {
  delete process.env.LOCAL_CONNECTORS_LOOPBACK;
  rmSync(out, { recursive: true, force: true });
  await p.close();
});

function suite(args: string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', join(__dirname, 'conformance-node20.mjs'), SUITE, ...args], {
      cwd: ROOT,
      env: { ...process.env, PLATFORM_URL: p.baseUrl, PLATFORM_TOKEN: p.owner.token, PLATFORM_ORG: p.org.orgId },
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('close', () => resolve(output));
  });
}

/** Per scenario, its checks that did not pass: `<status> <check id>`. */
function results(): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  const dir = join(out, 'auth');
  for (const run of existsSync(dir) ? readdirSync(dir) : []) {
    const scenario = `auth/${run.replace(/-\d{4}-\d{2}-\d{2}T.*$/, '')}`;
    const checks = JSON.parse(readFileSync(join(dir, run, 'checks.json'), 'utf8')) as { id: string; status: string }[];
    found[scenario] = checks
      .filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
      .map((c) => `${c.status} ${c.id}`);
  }
  return found;
}

it('passes the auth suite, but for what connectors do not do', async () => {
  const output = await suite([
    'client',
    '--command',
    `${process.execPath} ${TSX} ${join(__dirname, 'conformance-client.ts')}`,
    '--suite',
    'auth',
    '-o',
    out,
  ]);
  const found = results();
  expect({ found, output: Object.keys(found).length === 14 ? '' : output.slice(-3000) }).toEqual({
    found: {
      'auth/metadata-default': [],
      'auth/metadata-var1': [],
      'auth/metadata-var2': [],
      'auth/metadata-var3': [],
      // Client ID metadata documents (SEP-991): the platform registers dynamically instead.
      'auth/basic-cimd': ['WARNING cimd-client-id-used'],
      'auth/scope-from-www-authenticate': [],
      'auth/scope-from-scopes-supported': [],
      'auth/scope-omitted-when-undefined': [],
      // The server asks for more scope on tools/call, which connectors never make (they list tools);
      // a 403 asking for more on listing is followed (oauth.test.ts, "step-up").
      'auth/scope-step-up': ['FAILURE scope-step-up-escalation'],
      'auth/scope-retry-limit': [],
      'auth/token-endpoint-auth-basic': [],
      'auth/token-endpoint-auth-post': [],
      'auth/token-endpoint-auth-none': [],
      'auth/pre-registration': [],
    },
    output: '',
  });
}, 240_000);
