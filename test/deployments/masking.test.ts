import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { newId } from '../../shared/kernel/store/ids';
import { localPaths } from '../../shared/kernel/tenancy/paths';
import { makeTar } from '../fixtures/tar';
import type { TestPlatform } from '../helpers/platform';
import { putRecord } from '../helpers/records';
import { type Deployments, deploy, edgeFetch, followBuildLog, newProject, waitFinal, withDeployments } from './helpers';

/**
 * Sensitive values never leave the API in a log line: a build command and a server that print
 * their variables (as they are, encoded, cut short, over several lines) are read back through
 * every log route, and each sensitive value shows as `***`. `logs:read` never reveals what
 * `env:read` guards.
 */
let p: TestPlatform;
let env: Deployments;

withDeployments((platform, deployments) => {
  p = platform;
  env = deployments;
});

const orgPath = () => `/v1/orgs/${p.org.orgId}`;

const SECRET = 'sk_live_4f9a8b7c6d5e';
const SPECIAL = 'p@ss "w/rd" & more';
const MULTI = 'first-line-of-the-key\nsecond-line-of-the-key';
/** Under four characters: not masked (its gaps would show it, and every `abc` would go). */
const SHORT = 'abc';
const PLAIN = 'visible-value';

/** Every form of a sensitive value that must never be seen. */
const FORBIDDEN = [
  'sk_liv', // the secret, or the beginning of it where a line was cut
  Buffer.from(SECRET).toString('base64').replace(/=+$/, ''),
  SPECIAL,
  JSON.stringify(SPECIAL).slice(1, -1),
  encodeURIComponent(SPECIAL),
  'first-line-of-the-key',
  'second-line-of-the-key',
];

const build = `
const e = process.env;
console.log('secret: ' + e.API_SECRET);
console.error('stderr secret: ' + e.API_SECRET);
console.log('base64: ' + Buffer.from(e.API_SECRET).toString('base64'));
console.log('json: ' + JSON.stringify({ special: e.SPECIAL_SECRET }));
console.log('url: https://x.test/?p=' + encodeURIComponent(e.SPECIAL_SECRET));
console.log(e.MULTI_SECRET);
console.log('short: ' + e.SHORT_SECRET);
console.log('plain: ' + e.PLAIN_VALUE);
console.log('x'.repeat(3992) + e.API_SECRET);
`;
const server = `
const e = process.env;
require('node:http')
  .createServer((req, res) => {
    console.log('runtime secret ' + e.API_SECRET);
    console.error('runtime stderr ' + Buffer.from(e.API_SECRET).toString('base64'));
    console.log('runtime special ' + JSON.stringify(e.SPECIAL_SECRET));
    console.log('y'.repeat(7994) + e.API_SECRET);
    res.end('ok');
  })
  .listen(e.PORT, '127.0.0.1');
`;
const app = makeTar([
  { path: 'print-secrets.js', content: build },
  { path: 'server.js', content: server },
]);

const expectClean = (text: string) => {
  for (const f of FORBIDDEN) expect(text).not.toContain(f);
};

/** The runtime logs once the lines of one request are in (bounded). */
async function runtimeLines(deploymentId: string, q = ''): Promise<string[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await p.get(`${orgPath()}/deployments/${deploymentId}/runtime-logs${q}`);
    expect(res.status).toBe(200);
    const lines = (res.body.lines as { message: string }[]).map((l) => l.message);
    if (q !== '' || lines.some((m) => m.startsWith('y'.repeat(100)))) return lines;
    if (Date.now() > deadline) throw new Error('runtime logs not written in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('sensitive values in build and runtime logs', () => {
  let projectId: string;
  let deploymentId: string;
  let host: string;

  beforeAll(async () => {
    ({ projectId } = await newProject(p, 'node', { buildCommand: 'node print-secrets.js' }));
    const secret = await p.post(`${orgPath()}/projects/${projectId}/env`, {
      vars: [
        { key: 'API_SECRET', value: SECRET },
        { key: 'SPECIAL_SECRET', value: SPECIAL },
        { key: 'MULTI_SECRET', value: MULTI },
        { key: 'SHORT_SECRET', value: SHORT },
      ],
      targets: ['preview'],
    });
    expect(secret.status).toBe(200);
    const plain = await p.post(`${orgPath()}/projects/${projectId}/env`, {
      vars: [{ key: 'PLAIN_VALUE', value: PLAIN }],
      targets: ['preview'],
      sensitive: false,
    });
    expect(plain.status).toBe(200);
    ({ deploymentId, host } = await deploy(p, projectId, app));
    expect((await waitFinal(p, deploymentId)).deployment.status).toBe('ready');
    expect((await edgeFetch(env.edge, host, '/')).text).toBe('ok');
  });

  it('build-log and logs: every form of each sensitive value is ***', async () => {
    const followed = (await followBuildLog(p, deploymentId)).lines.map((l) => l.m);
    const all = (await p.get(`${orgPath()}/deployments/${deploymentId}/logs`)).body.lines.map(
      (l: { m: string }) => l.m,
    );
    for (const lines of [followed, all]) {
      expectClean(lines.join('\n'));
      expect(lines).toEqual(
        expect.arrayContaining([
          'secret: ***',
          'stderr secret: ***',
          'base64: ***',
          'json: {"special":"***"}',
          'url: https://x.test/?p=***',
          '***',
          // Not sensitive, or too short to mask: as printed.
          `short: ${SHORT}`,
          `plain: ${PLAIN}`,
          // Cut at 4,000 characters in the middle of the value: its beginning goes too.
          `${'x'.repeat(3992)}***…`,
        ]),
      );
    }
  });

  it('runtime-logs and its tail: masked; a line cut short loses the beginning of a value', async () => {
    const lines = await runtimeLines(deploymentId);
    expectClean(lines.join('\n'));
    expect(lines).toEqual(
      expect.arrayContaining(['runtime secret ***', 'runtime stderr ***', 'runtime special "***"']),
    );
    expect(lines.find((m) => m.startsWith('yyyy'))).toBe(`${'y'.repeat(7994)}***`);
    const tail = await p.get(`${orgPath()}/deployments/${deploymentId}/runtime-logs/tail?since=0`);
    expect(tail.status).toBe(200);
    const tailed = (tail.body.lines as { message: string }[]).map((l) => l.message);
    expectClean(tailed.join('\n'));
    expect(tailed).toContain('runtime secret ***');
  });

  it('a search never tells whether a line holds a sensitive value', async () => {
    for (const q of [SECRET, 'sk_live', 'SK_LIVE_4F', 'secret sk_']) {
      const query = `?q=${encodeURIComponent(q)}`;
      expect(await runtimeLines(deploymentId, query)).toEqual([]);
      const tail = await p.get(`${orgPath()}/deployments/${deploymentId}/runtime-logs/tail${query}&since=0`);
      expect(tail.body.lines).toEqual([]);
    }
    expect(await runtimeLines(deploymentId, '?q=runtime%20secret')).toEqual(['runtime secret ***']);
  });

  it('a value changed after the build: the value the deployment got stays masked', async () => {
    const put = await p.put(`${orgPath()}/projects/${projectId}/env/API_SECRET`, {
      value: 'rotated-secret-value',
      targets: ['preview'],
    });
    expect(put.status).toBe(200);
    const lines = (await followBuildLog(p, deploymentId)).lines.map((l) => l.m);
    expectClean(lines.join('\n'));
    expect(lines).toContain('secret: ***');
  });

  it('no answer carries the values, sealed or not', async () => {
    const read = await p.get(`${orgPath()}/deployments/${deploymentId}`);
    expect(read.body.deployment).not.toHaveProperty('logMask');
    expectClean(read.text);
  });
});

describe('a deployment launched before logs were masked', () => {
  it("is masked with its target's sensitive values as they are now", async () => {
    const { projectId } = await newProject(p, 'static');
    await p.put(`${orgPath()}/projects/${projectId}/env/TOKEN`, { value: SECRET, targets: ['production'] });
    const deploymentId = newId('dpl_');
    await putRecord(p.org.orgId, `DPL#${deploymentId}`, {
      deploymentId,
      orgId: p.org.orgId,
      projectId,
      location: 'fra',
      target: 'production',
      status: 'ready',
      createdAt: Date.now(),
      gsi1pk: `PRJ#${projectId}`,
      gsi1sk: `DPL#${deploymentId}`,
      version: 1,
    });
    // Its build log as a build of before wrote it.
    const file = localPaths.buildLog(deploymentId);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ t: Date.now(), m: `token is ${SECRET}` })}\n`);
    const page = await p.get(`${orgPath()}/deployments/${deploymentId}/build-log`);
    expect(page.status).toBe(200);
    expect(page.body.lines.map((l: { m: string }) => l.m)).toEqual(['token is ***']);
  });
});
