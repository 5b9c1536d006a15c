import { DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { linkedVariables } from '../../shared/domains/resources/links';
import { storage } from '../../shared/ports/object-storage';
import { TestPlatform } from '../helpers/platform';
import { putRecord, someId } from '../helpers/records';

let p: TestPlatform;
let base: string;
const dynamo = new DynamoDBClient({});
const s3 = new S3Client({
  region: 'eu-central-1',
  endpoint: process.env.AWS_ENDPOINT_URL_S3,
  forcePathStyle: true,
});

let n = 0;
const unique = (base: string) => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;

async function newProject(orgId = p.org.orgId, name = 'Web shop') {
  const projectId = someId('prj_');
  await putRecord(orgId, `PRJ#${projectId}`, { projectId, orgId, name, slug: unique('web') });
  return projectId;
}

async function create(body: Record<string, unknown>, token?: string) {
  return p.post(base, body, token === undefined ? undefined : { token });
}

async function tableExists(name: string): Promise<boolean> {
  try {
    await dynamo.send(new DescribeTableCommand({ TableName: name }));
    return true;
  } catch (err) {
    if ((err as Error).name === 'ResourceNotFoundException') return false;
    throw err;
  }
}

beforeAll(async () => {
  p = await TestPlatform.start();
  base = `/v1/orgs/${p.org.orgId}/resources`;
});
afterAll(() => p.close());

describe('POST /v1/orgs/:orgId/resources', () => {
  it('creates a database with keys pk and sk, both strings, and its table', async () => {
    const name = unique('orders');
    const res = await create({ type: 'database', name, description: 'Orders of the shop' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      resource: {
        resourceId: expect.stringMatching(/^res_[0-9a-z]{26}$/),
        type: 'database',
        name,
        status: 'active',
        description: 'Orders of the shop',
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
        region: 'eu-central-1',
        orgId: p.org.orgId,
        createdBy: p.owner.userId,
        location: 'fra',
        arn: expect.stringContaining(':table/cust-res_'),
        physicalName: `cust-${res.body.resource.resourceId}`,
      },
    });
    const table = await dynamo.send(new DescribeTableCommand({ TableName: res.body.resource.physicalName }));
    expect(table.Table?.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(table.Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it('creates a database with the given keys, or a partition key only with sortKey null', async () => {
    const both = await create({
      type: 'database',
      name: unique('events'),
      partitionKey: { name: 'tenant', type: 'S' },
      sortKey: { name: 'at', type: 'N' },
    });
    expect(both.status).toBe(201);
    const d1 = await p.get(`/v1/orgs/${p.org.orgId}/databases/${both.body.resource.resourceId}`);
    expect(d1.body.table).toMatchObject({
      partitionKey: { name: 'tenant', type: 'S' },
      sortKey: { name: 'at', type: 'N' },
    });

    const only = await create({
      type: 'database',
      name: unique('users'),
      partitionKey: { name: 'id', type: 'B' },
      sortKey: null,
    });
    expect(only.status).toBe(201);
    const d2 = await p.get(`/v1/orgs/${p.org.orgId}/databases/${only.body.resource.resourceId}`);
    expect(d2.body.table.partitionKey).toEqual({ name: 'id', type: 'B' });
    expect(d2.body.table.sortKey).toBeUndefined();

    const defaultSort = await create({
      type: 'database',
      name: unique('carts'),
      partitionKey: { name: 'id', type: 'S' },
    });
    const d3 = await p.get(`/v1/orgs/${p.org.orgId}/databases/${defaultSort.body.resource.resourceId}`);
    expect(d3.body.table.sortKey).toEqual({ name: 'sk', type: 'S' });
  });

  it('creates a bucket with a lowercase S3 name and the bucket itself, in the location asked for', async () => {
    const res = await create({ type: 'bucket', name: unique('photos'), location: 'dub' });
    expect(res.status).toBe(201);
    const r = res.body.resource;
    expect(r).toMatchObject({ type: 'bucket', status: 'active', location: 'dub', region: 'eu-west-1' });
    expect(r.physicalName).toMatch(/^plt-res-[0-9a-z]{26}$/);
    expect(r.physicalName.length).toBeLessThanOrEqual(63);
    expect(r.arn).toBe(`arn:aws:s3:::${r.physicalName}`);
    expect(await storage().bucketExists(r.physicalName)).toBe(true);
  });

  it('links a new database to a project', async () => {
    const projectId = await newProject();
    const res = await create({ type: 'database', name: unique('linked'), projectId });
    expect(res.status).toBe(201);
    expect(res.body.resource.projectId).toBe(projectId);
    expect(await linkedVariables(p.org.orgId, projectId)).toEqual({
      DATABASE_TABLE: res.body.resource.physicalName,
      DATABASE_REGION: 'eu-central-1',
    });
  });

  it.each([
    [{ type: 'bucket', partitionKey: { name: 'id', type: 'S' } }],
    [{ type: 'bucket', sortKey: null }],
    [{ type: 'repository', sortKey: { name: 'x', type: 'S' } }],
  ])('refuses keys on %j with 400 Only databases have keys.', async (body) => {
    const res = await create({ name: unique('nokeys'), ...body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Only databases have keys.' });
  });

  it('refuses a sort key named like the partition key with 400', async () => {
    const res = await create({
      type: 'database',
      name: unique('same'),
      partitionKey: { name: 'id', type: 'S' },
      sortKey: { name: 'id', type: 'N' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'The sort key must differ from the partition key.' });
  });

  it('refuses a project of another organization with 400 Project not found in this organization.', async () => {
    const other = await p.newOrg();
    const foreign = await newProject(other.org.orgId);
    for (const projectId of [foreign, someId('prj_')]) {
      const res = await create({ type: 'database', name: unique('x'), projectId });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Project not found in this organization.' });
    }
  });

  it('refuses an unknown location with 400 Unknown location: ...', async () => {
    const res = await create({ type: 'bucket', name: unique('far'), location: 'mars' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Unknown location: mars' });
  });

  it.each([
    ['Orders', 'uppercase'],
    ['ab', 'too short'],
    ['-orders', 'leading hyphen'],
    ['orders-', 'trailing hyphen'],
    ['a'.repeat(41), 'too long'],
    ['my_orders', 'underscore'],
  ])('refuses the name %s (%s) with 400 Invalid request', async (name) => {
    const res = await create({ type: 'database', name });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request');
    expect(res.body.issues[0].path).toBe('name');
  });

  it.each([
    [{ partitionKey: { name: '1abc', type: 'S' } }, 'partitionKey.name'],
    [{ partitionKey: { name: 'a b', type: 'S' } }, 'partitionKey.name'],
    [{ partitionKey: { name: 'id', type: 'BOOL' } }, 'partitionKey.type'],
    [{ sortKey: { name: `_${'x'.repeat(255)}`, type: 'S' } }, 'sortKey.name'],
    [{ description: 'd'.repeat(257) }, 'description'],
  ])('refuses %j with 400 Invalid request naming %s', async (extra, path) => {
    const res = await create({ type: 'database', name: unique('bad'), ...extra });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it('refuses a name the organization already uses for that type with 409; another type may use it', async () => {
    const name = unique('shared');
    expect((await create({ type: 'database', name })).status).toBe(201);
    const again = await create({ type: 'database', name });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: `This organization already uses ${name} for a database.` });
    expect((await create({ type: 'bucket', name })).status).toBe(201);
    const bucketAgain = await create({ type: 'bucket', name });
    expect(bucketAgain.body).toEqual({ error: `This organization already uses ${name} for a bucket.` });
    // Another organization may use it.
    const other = await p.newOrg();
    const elsewhere = await p.post(
      `/v1/orgs/${other.org.orgId}/resources`,
      { type: 'database', name },
      { token: other.owner.token },
    );
    expect(elsewhere.status).toBe(201);
  });

  it('refuses a second database for a project with 409 naming the one it uses', async () => {
    const projectId = await newProject(p.org.orgId, 'Storefront');
    const first = unique('main');
    expect((await create({ type: 'database', name: first, projectId })).status).toBe(201);
    const res = await create({ type: 'database', name: unique('second'), projectId });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: `Storefront already uses ${first} for its database.` });
    // A bucket is another link.
    expect((await create({ type: 'bucket', name: unique('assets'), projectId })).status).toBe(201);
  });

  it('creates repositories with the repos code (an empty one), and refuses to link them', async () => {
    const res = await create({ type: 'repository', name: unique('code') });
    expect(res.status).toBe(201);
    expect(res.body.resource).toMatchObject({ type: 'repository', status: 'active' });
    const linked = await create({ type: 'repository', name: unique('code'), projectId: await newProject() });
    expect(linked.status).toBe(400);
    expect(linked.body).toEqual({ error: 'Only databases and buckets can be linked.' });
  });

  it('needs git:write for repositories and resources:write for databases and buckets', async () => {
    const git = await p.apiKey(['git:write']);
    const db = await create({ type: 'database', name: unique('g') }, git);
    expect(db.status).toBe(403);
    expect(db.body).toEqual({ error: 'Missing scope resources:write' });
    expect((await create({ type: 'repository', name: unique('g') }, git)).status).toBe(201);
    const resources = await p.apiKey(['resources:write']);
    const repo = await create({ type: 'repository', name: unique('g') }, resources);
    expect(repo.status).toBe(403);
    expect(repo.body).toEqual({ error: 'Missing scope git:write' });
    const key = await create({ type: 'bucket', name: unique('k') }, resources);
    expect(key.status).toBe(201);
    expect(key.body.resource.createdBy).toMatch(/^key_|^[a-z]/);
  });

  it('is refused to a viewer with 403 Missing scope resources:write', async () => {
    const viewer = await p.person('viewer');
    const res = await create({ type: 'database', name: unique('v') }, viewer.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Missing scope resources:write' });
  });
});

describe('GET /v1/orgs/:orgId/resources', () => {
  it('lists the resources oldest first, filtered by type', async () => {
    const { org, owner } = await p.newOrg();
    const path = `/v1/orgs/${org.orgId}/resources`;
    const a = await p.post(path, { type: 'bucket', name: 'first-bucket' }, { token: owner.token });
    const b = await p.post(path, { type: 'database', name: 'second-db' }, { token: owner.token });
    const all = await p.get(path, { token: owner.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ resources: [a.body.resource, b.body.resource] });
    const dbs = await p.get(`${path}?type=database`, { token: owner.token });
    expect(dbs.body).toEqual({ resources: [b.body.resource] });
    const repos = await p.get(`${path}?type=repository`, { token: owner.token });
    expect(repos.body).toEqual({ resources: [] });
  });

  it('needs git:read with type=repository and resources:read otherwise', async () => {
    const git = await p.apiKey(['git:read']);
    expect((await p.get(`${base}?type=repository`, { token: git })).status).toBe(200);
    for (const q of ['', '?type=database', '?type=bucket']) {
      const res = await p.get(`${base}${q}`, { token: git });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Missing scope resources:read' });
    }
    const resources = await p.apiKey(['resources:read']);
    expect((await p.get(base, { token: resources })).status).toBe(200);
    const repo = await p.get(`${base}?type=repository`, { token: resources });
    expect(repo.status).toBe(403);
    expect(repo.body).toEqual({ error: 'Missing scope git:read' });
  });

  it('refuses an unknown type with 400 Invalid request', async () => {
    const res = await p.get(`${base}?type=queue`);
    expect(res.status).toBe(400);
    expect(res.body.issues[0].path).toBe('type');
  });
});

describe('PATCH /v1/orgs/:orgId/resources/:type/:resourceId', () => {
  it('links and unlinks a database and a bucket; the variables follow', async () => {
    const projectId = await newProject();
    const db = (await create({ type: 'database', name: unique('data') })).body.resource;
    const bucket = (await create({ type: 'bucket', name: unique('files') })).body.resource;
    const linked = await p.patch(`${base}/database/${db.resourceId}`, { projectId });
    expect(linked.status).toBe(200);
    expect(linked.body.resource).toEqual({ ...db, projectId, updatedAt: expect.any(Number) });
    expect((await p.patch(`${base}/bucket/${bucket.resourceId}`, { projectId })).status).toBe(200);
    expect(await linkedVariables(p.org.orgId, projectId)).toEqual({
      DATABASE_TABLE: db.physicalName,
      DATABASE_REGION: 'eu-central-1',
      BUCKET_NAME: bucket.physicalName,
      BUCKET_REGION: 'eu-central-1',
    });
    // Linking again to the same project changes nothing.
    expect((await p.patch(`${base}/database/${db.resourceId}`, { projectId })).status).toBe(200);

    const unlinked = await p.patch(`${base}/database/${db.resourceId}`, { projectId: null });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.resource.projectId).toBeUndefined();
    expect(await linkedVariables(p.org.orgId, projectId)).toEqual({
      BUCKET_NAME: bucket.physicalName,
      BUCKET_REGION: 'eu-central-1',
    });
    // The project's database link is free again.
    const other = (await create({ type: 'database', name: unique('data') })).body.resource;
    expect((await p.patch(`${base}/database/${other.resourceId}`, { projectId })).status).toBe(200);
  });

  it('moves a link from one project to another', async () => {
    const one = await newProject();
    const two = await newProject();
    const db = (await create({ type: 'database', name: unique('mover'), projectId: one })).body.resource;
    expect((await p.patch(`${base}/database/${db.resourceId}`, { projectId: two })).body.resource.projectId).toBe(two);
    expect(await linkedVariables(p.org.orgId, one)).toEqual({});
    expect((await linkedVariables(p.org.orgId, two)).DATABASE_TABLE).toBe(db.physicalName);
  });

  it('refuses a project that already links a database with 409', async () => {
    const projectId = await newProject(p.org.orgId, 'Checkout');
    const taken = unique('taken');
    await create({ type: 'database', name: taken, projectId });
    const db = (await create({ type: 'database', name: unique('late') })).body.resource;
    const res = await p.patch(`${base}/database/${db.resourceId}`, { projectId });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: `Checkout already uses ${taken} for its database.` });
  });

  it('answers 400 for an unknown type, a repository, an unknown project; 404 for an unknown resource', async () => {
    const db = (await create({ type: 'database', name: unique('x') })).body.resource;
    const unknownType = await p.patch(`${base}/queue/${db.resourceId}`, { projectId: null });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body).toEqual({ error: 'Unknown type' });
    const repo = await p.patch(`${base}/repository/${db.resourceId}`, { projectId: null });
    expect(repo.body).toEqual({ error: 'Only databases and buckets can be linked.' });
    const project = await p.patch(`${base}/database/${db.resourceId}`, { projectId: someId('prj_') });
    expect(project.status).toBe(400);
    expect(project.body).toEqual({ error: 'Project not found in this organization.' });
    const missing = await p.patch(`${base}/database/${someId('res_')}`, { projectId: null });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Not found' });
    // A bucket's id is not a database's.
    const bucket = (await create({ type: 'bucket', name: unique('b') })).body.resource;
    expect((await p.patch(`${base}/database/${bucket.resourceId}`, { projectId: null })).status).toBe(404);
  });

  it.each([[{}], [{ projectId: '' }], [{ projectId: 7 }]])('refuses %j with 400 Invalid request', async (body) => {
    const res = await p.patch(`${base}/database/${someId('res_')}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid request');
  });
});

describe('DELETE /v1/orgs/:orgId/resources/:type/:resourceId', () => {
  it('deletes a database with its table; the name and the project link are free again', async () => {
    const projectId = await newProject();
    const name = unique('gone');
    const db = (await create({ type: 'database', name, projectId })).body.resource;
    const res = await p.delete(`${base}/database/${db.resourceId}`);
    expect(res.status).toBe(204);
    expect(await tableExists(db.physicalName)).toBe(false);
    expect((await p.get(`${base}?type=database`)).body.resources.map((r: any) => r.resourceId)).not.toContain(
      db.resourceId,
    );
    expect((await create({ type: 'database', name, projectId })).status).toBe(201);
    const again = await p.delete(`${base}/database/${db.resourceId}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'Database not found' });
  });

  it('deletes an empty bucket; a bucket with files is 409 and keeps its status', async () => {
    const bucket = (await create({ type: 'bucket', name: unique('full') })).body.resource;
    await s3.send(new PutObjectCommand({ Bucket: bucket.physicalName, Key: 'a.txt', Body: 'x' }));
    const refused = await p.delete(`${base}/bucket/${bucket.resourceId}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'Delete every file in this bucket first.' });
    const after = (await p.get(`${base}?type=bucket`)).body.resources.find(
      (r: any) => r.resourceId === bucket.resourceId,
    );
    expect(after.status).toBe('active');

    const empty = (await create({ type: 'bucket', name: unique('empty') })).body.resource;
    expect((await p.delete(`${base}/bucket/${empty.resourceId}`)).status).toBe(204);
    expect(await storage().bucketExists(empty.physicalName)).toBe(false);
  });

  it('frees the name and the project link of a bucket deleted through the storage routes', async () => {
    const projectId = await newProject();
    const name = unique('via-storage');
    const bucket = (await create({ type: 'bucket', name, projectId })).body.resource;
    expect((await p.delete(`/v1/orgs/${p.org.orgId}/storage/${bucket.resourceId}`)).status).toBe(204);
    const again = await create({ type: 'bucket', name, projectId });
    expect(again.status).toBe(201);
    // A live link is never taken over.
    const other = (await create({ type: 'bucket', name: unique('other') })).body.resource;
    const refused = await p.patch(`${base}/bucket/${other.resourceId}`, { projectId });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: `Web shop already uses ${name} for its bucket.` });
  });

  it('refuses a database with deletion protection with 409 and leaves it active', async () => {
    const db = (await create({ type: 'database', name: unique('kept') })).body.resource;
    const settings = `/v1/orgs/${p.org.orgId}/databases/${db.resourceId}/settings`;
    expect((await p.patch(settings, { deletionProtection: true })).status).toBe(200);
    const res = await p.delete(`${base}/database/${db.resourceId}`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Turn off deletion protection first.' });
    const still = await p.get(`/v1/orgs/${p.org.orgId}/databases/${db.resourceId}`);
    expect(still.body.database.status).toBe('active');
    expect(await tableExists(db.physicalName)).toBe(true);
    await p.patch(settings, { deletionProtection: false });
    expect((await p.delete(`${base}/database/${db.resourceId}`)).status).toBe(204);
  });

  it('removes the record of a database whose table was deleted outside the platform', async () => {
    const db = (await create({ type: 'database', name: unique('outside') })).body.resource;
    await dynamo.send(new DeleteTableCommand({ TableName: db.physicalName }));
    expect((await p.delete(`${base}/database/${db.resourceId}`)).status).toBe(204);
  });

  it('answers 400 Unknown type, 404 by type, and 404 Not found without an id', async () => {
    const unknown = await p.delete(`${base}/queue/${someId('res_')}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'Unknown type' });
    for (const [type, message] of [
      ['database', 'Database not found'],
      ['bucket', 'Bucket not found'],
      ['repository', 'Repository not found'],
    ]) {
      const res = await p.delete(`${base}/${type}/${someId('res_')}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: message });
    }
    const noId = await p.delete(`${base}/database`);
    expect(noId.status).toBe(404);
    expect(noId.body).toEqual({ error: 'Not found' });
  });

  it('needs git:write for repositories and resources:write for the others', async () => {
    const git = await p.apiKey(['git:write']);
    const res = await p.delete(`${base}/database/${someId('res_')}`, { token: git });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Missing scope resources:write' });
    expect((await p.delete(`${base}/repository/${someId('res_')}`, { token: git })).status).toBe(404);
    const resources = await p.apiKey(['resources:write']);
    const repo = await p.delete(`${base}/repository/${someId('res_')}`, { token: resources });
    expect(repo.body).toEqual({ error: 'Missing scope git:write' });
  });
});
