import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { newId } from '../../shared/kernel/store/ids';
import { localPaths } from '../../shared/kernel/tenancy/paths';
import { functionName } from '../../shared/ports/runtime';
import { acquireFunction, localRuntime, stopAllFunctions } from '../../shared/ports/runtime/local';

/**
 * The runtime port's contract, held by the local adapter on its real engine (a child process per
 * function): `deploy` takes the built folder and freezes the variables with the function; the
 * function answers HTTP on its port and its output becomes log lines with levels and request ids;
 * `logs` filters by time and text in either order with `more`; `remove` stops and deletes it, twice
 * is fine. (The AWS adapter's calls: test/deployments/aws.test.ts and aws-function-roles.test.ts.)
 */
beforeAll(() => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'runtime-'));
});
afterAll(() => stopAllFunctions());

function get(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });
}

it('deploy, serve, log, remove', async () => {
  const port = localRuntime();
  const deploymentId = newId('dpl_');
  const staged = join(mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'stage-')), 'app');
  mkdirSync(staged);
  // A dependency-free server: it says hello to GREETING_NAME and logs each request.
  writeFileSync(
    join(staged, 'server.js'),
    "require('node:http').createServer((req, res) => { console.log('handling ' + req.url); " +
      "res.end('hello ' + process.env.GREETING_NAME); }).listen(Number(process.env.PORT), '127.0.0.1');\n",
  );
  expect(await port.exists(deploymentId)).toBe(false);

  const info = await port.deploy({
    deploymentId,
    orgId: 'org_contract',
    projectId: newId('prj_'),
    code: { dir: staged },
    entry: 'server.js',
    env: { GREETING_NAME: 'contract' },
  });
  expect(info).toMatchObject({ name: functionName(deploymentId), runtime: expect.any(String) });
  expect(await port.exists(deploymentId)).toBe(true);
  // The folder moved into the function's place; the variables are kept owner-only.
  expect(existsSync(staged)).toBe(false);
  expect(existsSync(join(localPaths.app(deploymentId), 'server.js'))).toBe(true);
  const config = join(localPaths.function(deploymentId), 'function.json');
  expect(statSync(config).mode & 0o777).toBe(0o600);
  expect(JSON.parse(readFileSync(config, 'utf8')).env).toMatchObject({ GREETING_NAME: 'contract' });

  const from = Date.now() - 1000;
  const fn = await acquireFunction(deploymentId, 'req-contract-1');
  expect(await get(fn.port, '/')).toBe('hello contract');
  fn.done();
  const logs = await port.logs(deploymentId, { from, to: Date.now() + 1000, limit: 100, order: 'asc' });
  expect(logs.lines.length).toBeGreaterThan(0);
  expect(logs.lines.every((l) => typeof l.id === 'string' && l.t >= from)).toBe(true);
  const none = await port.logs(deploymentId, {
    from,
    to: Date.now() + 1000,
    q: 'no-such-text-anywhere',
    limit: 100,
    order: 'desc',
  });
  expect(none).toEqual({ lines: [], more: false });
  if (logs.lines.length > 1) {
    const cut = await port.logs(deploymentId, { from, to: Date.now() + 1000, limit: 1, order: 'desc' });
    expect(cut.more).toBe(true);
    expect(cut.lines).toHaveLength(1);
  }

  await port.remove(deploymentId);
  expect(await port.exists(deploymentId)).toBe(false);
  expect(existsSync(localPaths.app(deploymentId))).toBe(false);
  await expect(port.remove(deploymentId)).resolves.toBeUndefined();
});
