import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { versionsPk } from '../../shared/domains/pages/versions';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import type { Person, TestPlatform } from '../helpers/platform';
import { pagesPlatform } from './platform';

/**
 * A page's history: every save and restore a version (numbered as the page's contentVersion, with
 * the title then, the author, the time and the size), listed newest first in pages, one read with
 * its content, restored as a new version (409 on a stale baseVersion, 404 for an unknown version,
 * 400 for a number that is none); viewers read it, writers restore; each restore audited and safe
 * to repeat with an Idempotency-Key; a page saved before versions were kept; a deleted page's
 * versions go with it.
 */
let p: TestPlatform;
let viewer: Person;
let developer: Person;
const pages = () => `/v1/orgs/${p.org.orgId}/pages`;
const versions = (pageId: string) => `${pages()}/${pageId}/versions`;

beforeAll(async () => {
  p = await pagesPlatform('versions');
  viewer = await p.person('viewer');
  developer = await p.person('developer');
});
afterAll(() => p.close());

async function create(title: string, content: string, token?: string): Promise<string> {
  const res = await p.post(pages(), { title, content }, token ? { token } : undefined);
  expect(res.status).toBe(201);
  return res.body.page.pageId as string;
}

async function save(pageId: string, content: string, token?: string) {
  const res = await p.put(`${pages()}/${pageId}/content`, { content }, token ? { token } : undefined);
  expect(res.status).toBe(200);
  return res.body.page.contentVersion as number;
}

const versionItems = async (pageId: string) =>
  (
    await db.send(
      new QueryCommand({
        TableName: TABLE(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': versionsPk(p.org.orgId, pageId) },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

describe('history', () => {
  it('lists every saved version newest first, each with the title then, its author, time and size', async () => {
    const before = Date.now();
    const pageId = await create('Runbook', '# Runbook\n');
    expect(await save(pageId, '# Runbook\n\nStep one.\n', developer.token)).toBe(2);
    await p.patch(`${pages()}/${pageId}`, { title: 'Ops runbook' });
    expect(await save(pageId, '')).toBe(3);
    const res = await p.get(versions(pageId));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      versions: [
        {
          n: 3,
          title: 'Ops runbook',
          size: 0,
          createdAt: expect.any(Number),
          createdBy: p.owner.userId,
          authorName: 'Test owner',
          restoredFrom: null,
        },
        {
          n: 2,
          title: 'Runbook',
          size: 21,
          createdAt: expect.any(Number),
          createdBy: developer.userId,
          authorName: 'Test developer',
          restoredFrom: null,
        },
        {
          n: 1,
          title: 'Runbook',
          size: 10,
          createdAt: expect.any(Number),
          createdBy: p.owner.userId,
          authorName: 'Test owner',
          restoredFrom: null,
        },
      ],
      cursor: null,
      contentVersion: 3,
    });
    const times = res.body.versions.map((v: { createdAt: number }) => v.createdAt);
    expect(times[2]).toBeGreaterThanOrEqual(before);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // No content in the list.
    expect(res.text).not.toContain('Step one');
  });

  it('reads one version with its content as saved, after later saves', async () => {
    const pageId = await create('Notes', 'first');
    await save(pageId, 'second');
    await save(pageId, 'third');
    const one = await p.get(`${versions(pageId)}/1`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      version: expect.objectContaining({ n: 1, title: 'Notes', size: 5, restoredFrom: null }),
      content: 'first',
    });
    expect((await p.get(`${versions(pageId)}/2`)).body.content).toBe('second');
    expect((await p.get(`${versions(pageId)}/3`)).body.content).toBe('third');
    // An empty page's version: empty content.
    const empty = await create('Empty', '');
    expect((await p.get(`${versions(empty)}/1`)).body).toMatchObject({ version: { n: 1, size: 0 }, content: '' });
  });

  it('pages the list with a signed cursor; a forged cursor is 400', async () => {
    const pageId = await create('Many', 'v1');
    for (let i = 2; i <= 5; i++) await save(pageId, `v${i}`);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await p.get(`${versions(pageId)}?limit=2${q}`);
      expect(res.status).toBe(200);
      expect(res.body.versions.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.versions.map((v: { n: number }) => v.n));
      cursor = res.body.cursor;
    } while (cursor);
    expect(seen).toEqual([5, 4, 3, 2, 1]);
    const forged = await p.get(`${versions(pageId)}?cursor=abc.def`);
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });
    // A cursor of another page's history is refused too.
    const other = await create('Other', 'x');
    await save(other, 'y');
    const first = await p.get(`${versions(other)}?limit=1`);
    const crossed = await p.get(`${versions(pageId)}?cursor=${encodeURIComponent(first.body.cursor)}`);
    expect(crossed.status).toBe(400);
  });
});

describe('restore', () => {
  it('makes a new version with the content of the one restored; the page holds it; the title stays', async () => {
    const pageId = await create('Policy', 'original text');
    await save(pageId, 'changed text');
    await p.patch(`${pages()}/${pageId}`, { title: 'Policy (renamed)' });
    const res = await p.post(`${versions(pageId)}/1/restore`, { baseVersion: 2 });
    expect(res.status).toBe(201);
    expect(res.body.page).toMatchObject({ pageId, contentVersion: 3, contentLength: 13, title: 'Policy (renamed)' });
    expect(res.body.version).toEqual({
      n: 3,
      title: 'Policy (renamed)',
      size: 13,
      createdAt: expect.any(Number),
      createdBy: p.owner.userId,
      authorName: 'Test owner',
      restoredFrom: 1,
    });
    const page = await p.get(`${pages()}/${pageId}`);
    expect(page.body.content).toBe('original text');
    expect(page.body.page.contentVersion).toBe(3);
    expect((await p.get(versions(pageId))).body.versions.map((v: { n: number }) => v.n)).toEqual([3, 2, 1]);
    // Every version still reads as it was saved; search finds the restored words.
    expect((await p.get(`${versions(pageId)}/2`)).body.content).toBe('changed text');
    const found = await p.get(`${pages()}/search?q=original`);
    expect(found.body.results.map((r: { page: { pageId: string } }) => r.page.pageId)).toContain(pageId);
    // Without baseVersion: restores over whatever is current.
    const again = await p.post(`${versions(pageId)}/2/restore`);
    expect(again.status).toBe(201);
    expect(again.body.version).toMatchObject({ n: 4, restoredFrom: 2 });
    expect((await p.get(`${pages()}/${pageId}`)).body.content).toBe('changed text');
  });

  it('refuses a stale baseVersion (409 with the current one), an unknown version (404) and a bad number (400)', async () => {
    const pageId = await create('Guarded history', 'a');
    await save(pageId, 'b');
    const stale = await p.post(`${versions(pageId)}/1/restore`, { baseVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'The content changed since you loaded it. Reload and try again.',
      contentVersion: 2,
    });
    expect((await p.get(`${pages()}/${pageId}`)).body.content).toBe('b');
    for (const path of [`${versions(pageId)}/3/restore`, `${versions(pageId)}/99`]) {
      const res = path.endsWith('restore') ? await p.post(path) : await p.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Version not found' });
    }
    for (const n of ['0', 'abc', '-1', '1.5', '1e2', '0x1']) {
      const read = await p.get(`${versions(pageId)}/${n}`);
      expect(read.status).toBe(400);
      expect(read.body.error).toBe('Invalid request');
      const restore = await p.post(`${versions(pageId)}/${n}/restore`);
      expect(restore.status).toBe(400);
    }
    const badBody = await p.post(`${versions(pageId)}/1/restore`, { baseVersion: 'two' });
    expect(badBody.status).toBe(400);
    const unknown = 'pg_00000000000000000000000000';
    for (const res of [
      await p.get(versions(unknown)),
      await p.get(`${versions(unknown)}/1`),
      await p.post(`${versions(unknown)}/1/restore`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Page not found' });
    }
  });

  it('viewers read the history but do not restore; keys restore with org:write only', async () => {
    const pageId = await create('Shared', 'one');
    await save(pageId, 'two');
    expect((await p.get(versions(pageId), { token: viewer.token })).status).toBe(200);
    expect((await p.get(`${versions(pageId)}/1`, { token: viewer.token })).body.content).toBe('one');
    const refused = await p.post(`${versions(pageId)}/1/restore`, {}, { token: viewer.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "Viewers can read pages but can't change them." });
    const readKey = await p.apiKey(['org:read']);
    const keyRefused = await p.post(`${versions(pageId)}/1/restore`, {}, { token: readKey });
    expect(keyRefused.status).toBe(403);
    expect(keyRefused.body).toEqual({ error: 'Missing scope org:write' });
    expect((await p.get(`${pages()}/${pageId}`)).body.content).toBe('two');
    const byDeveloper = await p.post(`${versions(pageId)}/1/restore`, {}, { token: developer.token });
    expect(byDeveloper.status).toBe(201);
    expect(byDeveloper.body.version).toMatchObject({ createdBy: developer.userId, authorName: 'Test developer' });
    const writeKey = await p.apiKey(['org:read', 'org:write']);
    const byKey = await p.post(`${versions(pageId)}/2/restore`, {}, { token: writeKey });
    expect(byKey.status).toBe(201);
    expect(byKey.body.version).toMatchObject({ n: 4, authorName: null, restoredFrom: 2 });
    // Another organization's owner sees nothing of it (not even the organization).
    const other = await p.newOrg();
    const outside = await p.get(versions(pageId), { token: other.owner.token });
    expect(outside.status).toBe(404);
    const outsideRestore = await p.post(`${versions(pageId)}/1/restore`, {}, { token: other.owner.token });
    expect(outsideRestore.status).toBe(404);
    expect((await p.get(`${pages()}/${pageId}`)).body.page.contentVersion).toBe(4);
  });

  it('is audited (refusals too), and an Idempotency-Key repeat restores once', async () => {
    const pageId = await create('Audited', 'x');
    await save(pageId, 'y');
    const headers = { 'idempotency-key': `restore-${pageId}` };
    const first = await p.post(`${versions(pageId)}/1/restore`, {}, { headers });
    const repeat = await p.post(`${versions(pageId)}/1/restore`, {}, { headers });
    expect(first.status).toBe(201);
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body).toEqual(first.body);
    expect((await p.get(versions(pageId))).body.versions.map((v: { n: number }) => v.n)).toEqual([3, 2, 1]);
    await p.post(`${versions(pageId)}/9/restore`);
    await p.post(`${versions(pageId)}/1/restore`, {}, { token: viewer.token });
    const audit = await p.get(`/v1/orgs/${p.org.orgId}/audit?target=${pageId}&action=pages.versions`);
    expect(audit.status).toBe(200);
    const entries = audit.body.entries as {
      action: string;
      status: number;
      target: Record<string, string>;
      actor: { id: string };
    }[];
    expect(entries.map((e) => `${e.action} ${e.status} ${e.actor.id}`).sort()).toEqual(
      [
        `pages.versions.restore 201 ${p.owner.userId}`,
        `pages.versions.restore 403 ${viewer.userId}`,
        `pages.versions.restore 404 ${p.owner.userId}`,
      ].sort(),
    );
    expect(entries.find((e) => e.status === 201)?.target).toEqual({ pageId, n: '1' });
    // Reading the history is not a write: nothing of it in the log.
    await p.get(versions(pageId));
    const reads = await p.get(`/v1/orgs/${p.org.orgId}/audit?target=${pageId}&action=pages.versions.read`);
    expect(reads.body.entries).toEqual([]);
  });
});

describe('pages saved before versions were kept, and deleted pages', () => {
  it('a page with no versions gets its current content as its version, numbered as its contentVersion', async () => {
    const pageId = await create('Legacy', 'one');
    await save(pageId, 'two');
    await save(pageId, 'three');
    // As a page saved before this release: no version items at all.
    for (const item of await versionItems(pageId)) {
      await db.send(new DeleteCommand({ TableName: TABLE(), Key: { pk: item.pk, sk: item.sk } }));
    }
    expect(await versionItems(pageId)).toEqual([]);
    const res = await p.get(versions(pageId));
    expect(res.body.versions).toEqual([expect.objectContaining({ n: 3, title: 'Legacy', size: 5, authorName: null })]);
    expect((await p.get(`${versions(pageId)}/3`)).body.content).toBe('three');
    expect((await p.get(`${versions(pageId)}/1`)).status).toBe(404);
    // Read again: still one.
    expect((await p.get(versions(pageId))).body.versions).toHaveLength(1);

    // A save of such a page keeps what it held before as a version first.
    const other = await create('Legacy too', 'old');
    await save(other, 'older');
    for (const item of await versionItems(other)) {
      await db.send(new DeleteCommand({ TableName: TABLE(), Key: { pk: item.pk, sk: item.sk } }));
    }
    await save(other, 'new');
    const list = await p.get(versions(other));
    expect(list.body.versions.map((v: { n: number }) => v.n)).toEqual([3, 2]);
    expect((await p.get(`${versions(other)}/2`)).body.content).toBe('older');
    expect((await p.get(`${versions(other)}/3`)).body.content).toBe('new');
  });

  it("deleting a page deletes its versions and its children's", async () => {
    const pageId = await create('Doomed', 'a');
    await save(pageId, 'b');
    const child = (await p.post(pages(), { title: 'Doomed child', parentId: pageId, content: 'c' })).body.page
      .pageId as string;
    expect(await versionItems(pageId)).toHaveLength(2);
    expect(await versionItems(child)).toHaveLength(1);
    expect((await p.delete(`${pages()}/${pageId}`)).status).toBe(204);
    expect(await versionItems(pageId)).toEqual([]);
    expect(await versionItems(child)).toEqual([]);
    expect((await p.get(versions(pageId))).status).toBe(404);
    expect((await p.get(`${versions(child)}/1`)).status).toBe(404);
  });
});
