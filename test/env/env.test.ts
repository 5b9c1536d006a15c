import { envContext, envHash, resolveEnv } from '../../shared/domains/projects/env';
import { RESERVED_NAMES } from '../../shared/domains/projects/env-schema';
import { SecretDecryptError, secrets } from '../../shared/ports/secrets';
import { TestPlatform } from '../helpers/platform';
import { putRecord, someId } from '../helpers/records';
import { failNthCall } from '../projects/faults';
import { createProject, readRecord } from '../projects/fixtures';

let p: TestPlatform;
beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

const envUrl = (projectId: string, orgId = p.org.orgId) => `/v1/orgs/${orgId}/projects/${projectId}/env`;
const NAME_RULE = 'Use letters, numbers and underscores, not starting with a number.';

async function project() {
  return (await createProject(p)).projectId;
}

describe('GET /v1/orgs/:orgId/projects/:projectId/env', () => {
  it('answers the variables sorted by key, visible values decrypted, sensitive values null', async () => {
    const id = await project();
    await p.post(envUrl(id), {
      vars: [
        { key: 'ZETA', value: 'z' },
        { key: 'ALPHA', value: 'a' },
      ],
      targets: ['production'],
      sensitive: false,
    });
    await p.post(envUrl(id), { vars: [{ key: 'MIDDLE', value: 'secret-m' }], targets: ['preview', 'development'] });
    const res = await p.get(envUrl(id));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      vars: [
        {
          key: 'ALPHA',
          orgId: p.org.orgId,
          projectId: id,
          value: 'a',
          targets: ['production'],
          sensitive: false,
          updatedBy: p.owner.userId,
          createdAt: expect.any(Number),
          updatedAt: expect.any(Number),
        },
        expect.objectContaining({ key: 'MIDDLE', value: null, sensitive: true, targets: ['preview', 'development'] }),
        expect.objectContaining({ key: 'ZETA', value: 'z', sensitive: false }),
      ],
    });
  });

  it('answers an empty list for a project without variables', async () => {
    const res = await p.get(envUrl(await project()));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ vars: [] });
  });

  it('stores values encrypted: the table holds no plaintext', async () => {
    const id = await project();
    await p.put(`${envUrl(id)}/PLAIN_CHECK`, { value: 'look-for-me-123', targets: ['production'], sensitive: false });
    const record = await readRecord(p.org.orgId, `ENV#${id}#PLAIN_CHECK`);
    expect(JSON.stringify(record)).not.toContain('look-for-me-123');
    expect(record?.secret).toMatch(/^v1\./);
  });

  it('does not decrypt a value copied from another project: it answers null', async () => {
    const a = await project();
    const b = await project();
    await p.put(`${envUrl(a)}/COPIED`, { value: 'from-a', targets: ['production'], sensitive: false });
    await p.put(`${envUrl(b)}/OWN`, { value: 'from-b', targets: ['production'], sensitive: false });
    const stolen = await readRecord(p.org.orgId, `ENV#${a}#COPIED`);
    const { pk: _pk, sk: _sk, ...copy } = stolen as Record<string, unknown>;
    await putRecord(p.org.orgId, `ENV#${b}#COPIED`, { ...copy, projectId: b });
    const res = await p.get(envUrl(b));
    expect(res.status).toBe(200);
    expect(res.body.vars.map((v: any) => [v.key, v.value])).toEqual([
      ['COPIED', null],
      ['OWN', 'from-b'],
    ]);
    await expect(resolveEnv(p.org.orgId, b, 'production')).rejects.toBeInstanceOf(SecretDecryptError);
    await expect(secrets().decrypt(envContext(p.org.orgId, b), [stolen?.secret])).rejects.toBeInstanceOf(
      SecretDecryptError,
    );
  });

  it('answers 404 Project not found for an unknown project', async () => {
    for (const id of [someId('prj_'), 'nope']) {
      const res = await p.get(envUrl(id));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Project not found' });
    }
  });

  it('is refused to a viewer: values are for developers and up', async () => {
    const viewer = await p.person('viewer');
    const res = await p.get(envUrl(await project()), { token: viewer.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Missing scope env:read' });
  });

  it('answers 404 Organization not found for an unknown organization', async () => {
    const res = await p.get(envUrl(someId('prj_'), someId('org_')));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });
});

describe('POST /v1/orgs/:orgId/projects/:projectId/env', () => {
  it('creates and replaces variables with the same targets; sensitive by default', async () => {
    const id = await project();
    const res = await p.post(envUrl(id), {
      vars: [
        { key: 'DATABASE_URL', value: 'postgres://x' },
        { key: '_private', value: '' },
        { key: 'a1', value: 'v' },
      ],
      targets: ['production', 'preview'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      keys: ['DATABASE_URL', '_private', 'a1'],
      targets: ['production', 'preview'],
      sensitive: true,
    });
    const created = (await p.get(envUrl(id))).body.vars;
    expect(created.every((v: any) => v.value === null && v.sensitive)).toBe(true);

    const replaced = await p.post(envUrl(id), {
      vars: [{ key: 'a1', value: 'new' }],
      targets: ['development'],
      sensitive: false,
    });
    expect(replaced.status).toBe(200);
    const a1 = (await p.get(envUrl(id))).body.vars.find((v: any) => v.key === 'a1');
    expect(a1).toMatchObject({ value: 'new', targets: ['development'], sensitive: false });
    expect(a1.updatedAt).toBeGreaterThanOrEqual(a1.createdAt);
  });

  it('takes the last value of a name given twice', async () => {
    const id = await project();
    const res = await p.post(envUrl(id), {
      vars: [
        { key: 'TWICE', value: 'first' },
        { key: 'TWICE', value: 'second' },
      ],
      targets: ['production'],
      sensitive: false,
    });
    expect(res.body.keys).toEqual(['TWICE']);
    expect((await p.get(envUrl(id))).body.vars.map((v: any) => v.value)).toEqual(['second']);
  });

  it('writes 200 variables of the largest values, over several transactions', async () => {
    const id = await project();
    // 200 × 27,000 characters: about 5.4 MB, under Lambda's 6 MiB each way (the request, and the
    // list that reads them back), and over DynamoDB's 4 MB a transaction once encrypted.
    const vars = Array.from({ length: 200 }, (_, i) => ({ key: `BIG_${i}`, value: `${i}:`.padEnd(27_000, 'x') }));
    const res = await p.post(envUrl(id), { vars, targets: ['production'], sensitive: false });
    expect(res.status).toBe(200);
    expect(res.body.keys).toHaveLength(200);
    const stored = (await p.get(envUrl(id))).body.vars;
    expect(stored).toHaveLength(200);
    expect(stored.find((v: any) => v.key === 'BIG_199').value).toBe(vars[199]?.value);
  });

  it('accepts a value of 65,536 characters and a name of 256', async () => {
    const id = await project();
    const key = `K${'_'.repeat(255)}`;
    const res = await p.post(envUrl(id), {
      vars: [{ key, value: '€'.repeat(65_536) }],
      targets: ['preview'],
      sensitive: false,
    });
    expect(res.status).toBe(200);
    expect((await p.get(envUrl(id))).body.vars[0].value).toBe('€'.repeat(65_536));
  });

  it('refuses invalid names with 400, all named as sent, and writes nothing', async () => {
    const id = await project();
    const res = await p.post(envUrl(id), {
      vars: [
        { key: 'GOOD', value: 'x' },
        { key: '1ST', value: 'x' },
        { key: 'has-dash', value: 'x' },
        { key: 'has space', value: 'x' },
        { key: '1ST', value: 'y' },
        { key: 'PORT', value: 'x' },
      ],
      targets: ['production'],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `Invalid names: 1ST, has-dash, has space. ${NAME_RULE}` });
    expect((await p.get(envUrl(id))).body.vars).toEqual([]);
  });

  it('refuses reserved names with 400 Reserved by the platform: ..., and writes nothing', async () => {
    const id = await project();
    const res = await p.post(envUrl(id), {
      vars: ['OK', 'AWS_REGION', 'aws_secret', 'LAMBDA_TASK_ROOT', '_HANDLER', 'PORT', 'PLATFORM_URL'].map((key) => ({
        key,
        value: 'x',
      })),
      targets: ['production'],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Reserved by the platform: AWS_REGION, aws_secret, LAMBDA_TASK_ROOT, _HANDLER, PORT, PLATFORM_URL.',
    });
    expect((await p.get(envUrl(id))).body.vars).toEqual([]);
  });

  it('keeps the reserved names in one list', () => {
    expect(RESERVED_NAMES).toEqual(['AWS_*', 'LAMBDA_*', '_HANDLER', '_X_AMZN_TRACE_ID', 'PORT', 'PLATFORM_*']);
  });

  it.each([
    ['no vars', { targets: ['production'] }, 'vars'],
    ['no variable', { vars: [], targets: ['production'] }, 'vars'],
    [
      '201 variables',
      { vars: Array.from({ length: 201 }, (_, i) => ({ key: `K${i}`, value: '' })), targets: ['production'] },
      'vars',
    ],
    ['an empty name', { vars: [{ key: '', value: 'x' }], targets: ['production'] }, 'vars.0.key'],
    ['a name of 257', { vars: [{ key: 'K'.repeat(257), value: 'x' }], targets: ['production'] }, 'vars.0.key'],
    ['a value of 65,537', { vars: [{ key: 'K', value: 'x'.repeat(65_537) }], targets: ['production'] }, 'vars.0.value'],
    ['no value', { vars: [{ key: 'K' }], targets: ['production'] }, 'vars.0.value'],
    ['no targets', { vars: [{ key: 'K', value: 'x' }] }, 'targets'],
    ['empty targets', { vars: [{ key: 'K', value: 'x' }], targets: [] }, 'targets'],
    ['an unknown target', { vars: [{ key: 'K', value: 'x' }], targets: ['staging'] }, 'targets.0'],
    [
      'a non-boolean sensitive',
      { vars: [{ key: 'K', value: 'x' }], targets: ['production'], sensitive: 'yes' },
      'sensitive',
    ],
  ])('refuses %s with 400 Invalid request naming the field', async (_what, body, path) => {
    const res = await p.post(envUrl(await project()), body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request');
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it('answers 503 when a write stops part-way; the same request again saves everything', async () => {
    const id = await project();
    const vars = Array.from({ length: 150 }, (_, i) => ({ key: `PART_${String(i).padStart(3, '0')}`, value: `v${i}` }));
    const body = { vars, targets: ['production', 'preview'], sensitive: false };
    const undo = failNthCall('TransactWriteItemsCommand', 2);
    let failed: Awaited<ReturnType<typeof p.post>>;
    try {
      failed = await p.post(envUrl(id), body);
    } finally {
      undo();
    }
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ error: "Some variables weren't saved. Try again." });
    const partial = (await p.get(envUrl(id))).body.vars;
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(150);

    const retried = await p.post(envUrl(id), body);
    expect(retried.status).toBe(200);
    const all = (await p.get(envUrl(id))).body.vars;
    expect(all.map((v: any) => [v.key, v.value])).toEqual(vars.map((v) => [v.key, v.value]));
    expect(all.every((v: any) => v.targets.join() === 'production,preview')).toBe(true);
  });

  it('answers the backend error (not 503) when the first write fails: nothing was written', async () => {
    const id = await project();
    const undo = failNthCall('TransactWriteItemsCommand', 1);
    let failed: Awaited<ReturnType<typeof p.post>>;
    try {
      failed = await p.post(envUrl(id), { vars: [{ key: 'A', value: 'x' }], targets: ['production'] });
    } finally {
      undo();
    }
    expect(failed.status).toBe(502);
    expect((await p.get(envUrl(id))).body.vars).toEqual([]);
  });

  it('answers 404 Project not found for an unknown project', async () => {
    const res = await p.post(envUrl(someId('prj_')), { vars: [{ key: 'A', value: 'x' }], targets: ['production'] });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Project not found' });
  });
});

describe('PUT /v1/orgs/:orgId/projects/:projectId/env/:key', () => {
  it('creates a variable, sensitive by default', async () => {
    const id = await project();
    const res = await p.put(`${envUrl(id)}/NEW_ONE`, { value: 'v', targets: ['preview'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ key: 'NEW_ONE', targets: ['preview'], sensitive: true });
    expect((await p.get(envUrl(id))).body.vars[0]).toMatchObject({ key: 'NEW_ONE', value: null, sensitive: true });
  });

  it('replaces the value and keeps createdAt', async () => {
    const id = await project();
    await p.put(`${envUrl(id)}/REPLACED`, { value: 'one', targets: ['preview'], sensitive: false });
    const first = (await p.get(envUrl(id))).body.vars[0];
    await p.put(`${envUrl(id)}/REPLACED`, { value: 'two', targets: ['production'], sensitive: false });
    const second = (await p.get(envUrl(id))).body.vars[0];
    expect(second).toMatchObject({ value: 'two', targets: ['production'], createdAt: first.createdAt });
  });

  it('keeps the stored value when value is omitted: changing targets, hiding a variable', async () => {
    const id = await project();
    await p.put(`${envUrl(id)}/KEEP`, { value: 'kept', targets: ['preview'], sensitive: false });
    const retarget = await p.put(`${envUrl(id)}/KEEP`, { targets: ['production', 'development'], sensitive: false });
    expect(retarget.status).toBe(200);
    expect(retarget.body).toEqual({ key: 'KEEP', targets: ['production', 'development'], sensitive: false });
    expect((await p.get(envUrl(id))).body.vars[0]).toMatchObject({
      value: 'kept',
      targets: ['production', 'development'],
    });
    expect(await resolveEnv(p.org.orgId, id, 'production')).toEqual({ KEEP: 'kept' });

    const hidden = await p.put(`${envUrl(id)}/KEEP`, { targets: ['production'] });
    expect(hidden.status).toBe(200);
    expect(hidden.body.sensitive).toBe(true);
    expect((await p.get(envUrl(id))).body.vars[0].value).toBeNull();
    expect(await resolveEnv(p.org.orgId, id, 'production')).toEqual({ KEEP: 'kept' });
  });

  it('changes the targets of a sensitive variable without its value', async () => {
    const id = await project();
    await p.put(`${envUrl(id)}/TOKEN`, { value: 't0k3n', targets: ['preview'] });
    const res = await p.put(`${envUrl(id)}/TOKEN`, { targets: ['production'] });
    expect(res.status).toBe(200);
    expect(await resolveEnv(p.org.orgId, id, 'production')).toEqual({ TOKEN: 't0k3n' });
  });

  it('refuses to make a sensitive variable visible without a new value', async () => {
    const id = await project();
    await p.put(`${envUrl(id)}/HIDDEN`, { value: 'h', targets: ['preview'] });
    const res = await p.put(`${envUrl(id)}/HIDDEN`, { targets: ['preview'], sensitive: false });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Enter a new value to make this variable visible.' });
    const withValue = await p.put(`${envUrl(id)}/HIDDEN`, {
      value: 'now-visible',
      targets: ['preview'],
      sensitive: false,
    });
    expect(withValue.status).toBe(200);
    expect((await p.get(envUrl(id))).body.vars[0].value).toBe('now-visible');
  });

  it('refuses a new variable without a value with 400 Enter a value.', async () => {
    const res = await p.put(`${envUrl(await project())}/NOTHING`, { targets: ['preview'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Enter a value.' });
  });

  it.each(['1ABC', 'has-dash', 'dot.ted', 'sp%20ace'])('refuses the name %s with 400', async (name) => {
    const res = await p.put(`${envUrl(await project())}/${name}`, { value: 'x', targets: ['preview'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: NAME_RULE });
  });

  it.each(['AWS_ACCESS_KEY_ID', 'LAMBDA_RUNTIME_DIR', '_HANDLER', 'PORT', 'PLATFORM_DEPLOYMENT_ID', 'Port'])(
    'refuses the reserved name %s with 400 ... is reserved by the platform.',
    async (name) => {
      const res = await p.put(`${envUrl(await project())}/${name}`, { value: 'x', targets: ['preview'] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: `${name} is reserved by the platform.` });
    },
  );

  it.each([
    ['no targets', { value: 'x' }, 'targets'],
    ['empty targets', { value: 'x', targets: [] }, 'targets'],
    ['a value of 65,537', { value: 'x'.repeat(65_537), targets: ['preview'] }, 'value'],
    ['a number as value', { value: 5, targets: ['preview'] }, 'value'],
  ])('refuses %s with 400 Invalid request naming the field', async (_what, body, path) => {
    const res = await p.put(`${envUrl(await project())}/VALID`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request');
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it('refuses a name over 256 characters with 400 Invalid request', async () => {
    const res = await p.put(`${envUrl(await project())}/${'K'.repeat(257)}`, { value: 'x', targets: ['preview'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request');
  });

  it('answers 404 Project not found for an unknown project', async () => {
    const res = await p.put(`${envUrl(someId('prj_'))}/A`, { value: 'x', targets: ['preview'] });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Project not found' });
  });
});

describe('DELETE /v1/orgs/:orgId/projects/:projectId/env/:key', () => {
  it('deletes a variable', async () => {
    const id = await project();
    await p.put(`${envUrl(id)}/GOES`, { value: 'x', targets: ['preview'] });
    await p.put(`${envUrl(id)}/STAYS`, { value: 'y', targets: ['preview'] });
    const res = await p.delete(`${envUrl(id)}/GOES`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await p.get(envUrl(id))).body.vars.map((v: any) => v.key)).toEqual(['STAYS']);
  });

  it('answers 204 for a variable that does not exist', async () => {
    expect((await p.delete(`${envUrl(await project())}/NEVER_SET`)).status).toBe(204);
  });

  it('answers 404 Project not found for an unknown project', async () => {
    const res = await p.delete(`${envUrl(someId('prj_'))}/A`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Project not found' });
  });
});

describe('envHash: the variables a deployment target sees', () => {
  it('is stable, per target, and changes with a name or value', async () => {
    const id = await project();
    await p.post(envUrl(id), {
      vars: [
        { key: 'B', value: '2' },
        { key: 'A', value: '1' },
      ],
      targets: ['production'],
    });
    await p.put(`${envUrl(id)}/PREVIEW_ONLY`, { value: 'p', targets: ['preview'] });
    const production = await resolveEnv(p.org.orgId, id, 'production');
    expect(production).toEqual({ A: '1', B: '2' });
    expect(await resolveEnv(p.org.orgId, id, 'preview')).toEqual({ PREVIEW_ONLY: 'p' });
    expect(await resolveEnv(p.org.orgId, id, 'development')).toEqual({});

    const hash = envHash(production);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(envHash({ B: '2', A: '1' })).toBe(hash);
    // Rewriting the same values (new ciphertexts) keeps the hash.
    await p.post(envUrl(id), { vars: [{ key: 'A', value: '1' }], targets: ['production'] });
    expect(envHash(await resolveEnv(p.org.orgId, id, 'production'))).toBe(hash);
    await p.put(`${envUrl(id)}/A`, { value: 'changed', targets: ['production'] });
    expect(envHash(await resolveEnv(p.org.orgId, id, 'production'))).not.toBe(hash);
    expect(envHash({ A: '1', B: '2', C: '' })).not.toBe(hash);
    expect(envHash({ 'A","B': '' })).not.toBe(envHash({ A: '', B: '' }));
  });
});
