import { randomBytes } from 'node:crypto';
import { addMember } from '../../shared/kernel/identity/orgs';
import { TestPlatform } from '../helpers/platform';
import { failNthCall } from '../projects/faults';
import { createProject } from '../projects/fixtures';

/**
 * Sensitive values never leave the API: not in a response of any route that touches them, not
 * in a log line — on success, on refusal, on a backend failure. Log lines are what the handlers
 * (in this process) write to stdout and stderr.
 */
let p: TestPlatform;
const lines: string[] = [];
const writes = { out: process.stdout.write, err: process.stderr.write };
const level = process.env.LOG_LEVEL;

beforeAll(async () => {
  p = await TestPlatform.start();
  process.env.LOG_LEVEL = 'info';
  const capture = (original: typeof process.stdout.write) =>
    function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return (original as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof process.stdout.write;
  process.stdout.write = capture(writes.out);
  process.stderr.write = capture(writes.err);
});
afterAll(async () => {
  process.stdout.write = writes.out;
  process.stderr.write = writes.err;
  process.env.LOG_LEVEL = level;
  await p.close();
});

it('no response and no log line ever contains a sensitive value', async () => {
  const secret = `S3NSITIVE-${randomBytes(12).toString('hex')}`;
  const responses: string[] = [];
  const call = async (res: Promise<{ status: number; text: string }>, status?: number) => {
    const r = await res;
    responses.push(r.text);
    if (status !== undefined) expect([r.status, r.text]).toEqual([status, expect.any(String)]);
    return r;
  };
  const prj = await createProject(p);
  const env = `/v1/orgs/${p.org.orgId}/projects/${prj.projectId}/env`;

  await call(p.post(env, { vars: [{ key: 'BULK_SECRET', value: secret }], targets: ['production'] }), 200);
  await call(p.put(`${env}/ONE_SECRET`, { value: secret, targets: ['preview'] }), 200);
  await call(p.put(`${env}/ONE_SECRET`, { targets: ['production', 'preview'] }), 200);
  await call(p.get(env), 200);
  await call(p.put(`${env}/ONE_SECRET`, { targets: ['preview'], sensitive: false }), 400);
  await call(p.post(env, { vars: [{ key: '9BAD', value: secret }], targets: ['production'] }), 400);
  await call(p.post(env, { vars: [{ key: 'PORT', value: secret }], targets: ['production'] }), 400);
  await call(
    p.post(env, { vars: [{ key: 'LONG', value: `${secret}${'x'.repeat(65_536)}` }], targets: ['production'] }),
    400,
  );
  await call(p.post(env, { vars: [{ key: 'X', value: secret }], targets: ['nowhere'] }), 400);
  await call(p.put(`${env}/PORT`, { value: secret, targets: ['preview'] }), 400);
  await call(
    p.post(`/v1/orgs/${p.org.orgId}/projects/prj_${'0'.repeat(26)}/env`, {
      vars: [{ key: 'A', value: secret }],
      targets: ['preview'],
    }),
    404,
  );

  // A bulk write that fails part-way logs, and must log no value.
  const vars = Array.from({ length: 120 }, (_, i) => ({ key: `K${i}`, value: `${secret}-${i}` }));
  const undo = failNthCall('TransactWriteItemsCommand', 2);
  try {
    await call(p.post(env, { vars, targets: ['production'] }), 503);
  } finally {
    undo();
  }
  // A backend failure on the first write is logged by the stack.
  const undoFirst = failNthCall('TransactWriteItemsCommand', 1);
  try {
    await call(p.put(`${env}/FAILS`, { value: secret, targets: ['preview'] }), 502);
  } finally {
    undoFirst();
  }
  await call(p.post(env, { vars, targets: ['production'] }), 200);
  await call(p.get(env), 200);
  await call(p.get(`/v1/orgs/${p.org.orgId}/projects/${prj.projectId}`), 200);
  await call(p.get(`/v1/orgs/${p.org.orgId}/projects?include=summary`), 200);

  // Moving the project re-encrypts every value; then it goes.
  const other = await p.newOrg();
  await addMember(other.org.orgId, p.owner.email, 'admin');
  await call(p.post(`/v1/orgs/${p.org.orgId}/projects/${prj.projectId}/transfer`, { orgId: other.org.orgId }), 200);
  await call(p.get(`/v1/orgs/${other.org.orgId}/projects/${prj.projectId}/env`), 200);
  await call(p.delete(`/v1/orgs/${other.org.orgId}/projects/${prj.projectId}/env/ONE_SECRET`), 204);
  await call(p.delete(`/v1/orgs/${other.org.orgId}/projects/${prj.projectId}`), 204);

  // The capture works: the failures above were logged.
  expect(lines.join('')).toContain('bulk variable write stopped part-way');
  expect(lines.join('')).toContain('backend error');
  for (const text of [...responses, ...lines]) expect(text).not.toContain(secret);
  // Nor any recognizable part of it.
  for (const text of [...responses, ...lines]) expect(text).not.toContain(secret.slice(-16));
});
