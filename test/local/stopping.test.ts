/**
 * `npm start` leaves nothing behind: started with its own PORT and DATA_DIR, in a process group
 * of its own as a terminal starts a job, and stopped as a terminal or a person stops it (Ctrl-C:
 * SIGINT to the group; `kill`: SIGTERM to npm; `kill -9` of the job: SIGKILL to the group, which
 * no handler sees), no process of its tree is left: npm, the platform, DynamoDB Local's launcher
 * and java, the S3 server (each carries the DATA_DIR in its environment or command line).
 * Slow (four starts): the one file for it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { killWith, leftWith, processesWith } from '../helpers/processes';

const ROOT = resolve(__dirname, '../..');

/** Five distinct free ports, held at once so none is handed out twice. */
async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  for (let i = 0; i < count; i++) {
    const srv = createServer();
    await new Promise<void>((ok, fail) => {
      srv.once('error', fail);
      srv.listen(0, '127.0.0.1', () => ok());
    });
    servers.push(srv);
  }
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((ok) => s.close(ok))));
  return ports;
}

/** `npm start` in a process group of its own; resolves once it is ready. */
async function npmStart(dataDir: string): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {};
  // This run's test settings (its engines, its table) are not the platform's.
  const inherited = /^(AWS_|TABLE_NAME$|AUTH_URL$|CURSOR_SECRET$|IDP_KEY_FILE$|TEST_DATA_DIR$|PLATFORM_TARGET$|PORT$)/;
  for (const [k, v] of Object.entries(process.env)) if (!inherited.test(k)) env[k] = v;
  const [api, idp, dynamodb, s3, sqs] = (await freePorts(5)).map(String);
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...env, DATA_DIR: dataDir, PORT: api, IDP_PORT: idp, DYNAMODB_PORT: dynamodb, S3_PORT: s3, SQS_PORT: sqs },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`not ready within 90 s:\n${out}`)), 90_000);
    child.stdout?.on('data', () => {
      if (!/Ready in [\d.]+ s/.test(out)) return;
      clearTimeout(timer);
      ok();
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`exited (${signal ?? code}) before it was ready:\n${out}`));
    });
  });
  return child;
}

let dataDir: string | undefined;
afterEach(() => {
  // Whatever happened to the test, nothing of its platform is left running.
  if (!dataDir) return;
  killWith(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

test.each([
  ['Ctrl-C (SIGINT to its process group)', 'SIGINT', 'group'],
  ['SIGTERM to npm', 'SIGTERM', 'npm'],
  ['kill -9 of npm alone (its sh and the platform have no handler for it)', 'SIGKILL', 'npm'],
  ['kill -9 of the job (SIGKILL to its process group; the engines are in groups of their own)', 'SIGKILL', 'group'],
] as const)(
  'npm start stopped by %s leaves no process of its tree',
  async (_, signal, to) => {
    dataDir = mkdtempSync(join(tmpdir(), 'platform-stopping-'));
    const npm = await npmStart(dataDir);
    const tree = processesWith(dataDir).map((p) => p.args);
    // Its engines run: java (DynamoDB Local) and the S3 server are among what must end.
    expect(tree).toEqual(
      expect.arrayContaining([expect.stringMatching(/^java /), expect.stringMatching(/s3-server\.ts$/)]),
    );
    process.kill(to === 'group' ? -(npm.pid as number) : (npm.pid as number), signal);
    expect(await leftWith(dataDir, 15_000)).toEqual([]);
  },
  150_000,
);
