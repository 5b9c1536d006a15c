import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { listPeople } from '../../shared/domains/repos/people';
import { resourceKey } from '../../shared/domains/resources/records';
import { db } from '../../shared/kernel/store/client';
import { getItem, TABLE } from '../../shared/kernel/store/table';
import { type Person, TestPlatform } from '../helpers/platform';
import { startQueueWorker } from '../helpers/sqs';
import { until } from '../helpers/until';

/**
 * Repository issues (spec part B): one number sequence per repository, lists newest first with
 * filters and signed cursors, edits by the author or git:write on the version read, comments
 * counted in the same write, and every error of the spec's table.
 */
let p: TestPlatform;
let viewer: Person;
let developer: Person;
let worker: { stop: () => Promise<void> } | undefined;
let n = 0;
const unique = (base = 'iss') => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;
const repos = () => `/v1/orgs/${p.org.orgId}/repos`;

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'issues-'));
  worker = await startQueueWorker('notify');
  p = await TestPlatform.start();
  viewer = await p.person('viewer');
  developer = await p.person('developer');
});
afterAll(async () => {
  await p.close();
  await worker?.stop();
});

async function newRepo() {
  const name = unique();
  const res = await p.post(repos(), { name });
  expect(res.status).toBe(201);
  return { name, base: `${repos()}/${name}/issues`, repoId: res.body.repo.resourceId as string };
}

describe('create and read', () => {
  it('opens issues under the next number, with defaults, trimmed title and the author', async () => {
    const { base, repoId } = await newRepo();
    const first = await p.post(base, { title: '  Crash on start  ' }, { token: viewer.token });
    expect(first.status).toBe(201);
    expect(first.body.issue).toEqual({
      number: 1,
      orgId: p.org.orgId,
      repoId,
      title: 'Crash on start',
      body: '',
      state: 'open',
      labels: [],
      assignees: [],
      comments: 0,
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
      authorId: viewer.userId,
      authorEmail: viewer.email,
      authorName: 'Test viewer',
    });
    const second = await p.post(base, { title: 'Two', body: 'Details', labels: ['bug', ' ui '] });
    expect(second.body.issue).toMatchObject({ number: 2, body: 'Details', labels: ['bug', 'ui'] });
    const got = await p.get(`${base}/1`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ issue: first.body.issue, comments: [] });
  });

  it('assignees are members, by id or handle; anyone else is 400', async () => {
    const { base } = await newRepo();
    const people = (await p.get(`${repos()}/-/people`)).body.people as { userId: string; handle: string }[];
    const dev = people.find((x) => x.userId === developer.userId) as { handle: string };
    const byHandle = await p.post(base, { title: 'Assigned', assignees: [dev.handle, p.owner.userId] });
    expect(byHandle.status).toBe(201);
    expect(byHandle.body.issue.assignees).toEqual([developer.userId, p.owner.userId]);
    const stranger = await p.post(base, { title: 'No', assignees: ['usr_nobody'] });
    expect(stranger.status).toBe(400);
    expect(stranger.body).toEqual({ error: 'Assignees must be members of this organization.' });
  });

  it('validates: title 1-256, at most 10 labels and assignees, body up to 65,536', async () => {
    const { base } = await newRepo();
    for (const body of [
      {},
      { title: '   ' },
      { title: 'x'.repeat(257) },
      { title: 'x', labels: Array.from({ length: 11 }, (_, i) => `l${i}`) },
      { title: 'x', labels: ['x'.repeat(51)] },
      { title: 'x', assignees: Array.from({ length: 11 }, (_, i) => `u${i}`) },
      { title: 'x', body: 'b'.repeat(65_537) },
    ]) {
      expect((await p.post(base, body)).status).toBe(400);
    }
    expect((await p.post(base, { title: 'x'.repeat(256), body: 'b'.repeat(65_536) })).status).toBe(201);
  });

  it('404s: no repository, a malformed number, a number that is no issue', async () => {
    const { base } = await newRepo();
    const noRepo = await p.get(`${repos()}/nope-${unique()}/issues`);
    expect(noRepo.status).toBe(404);
    expect(noRepo.body).toEqual({ error: 'Repository not found' });
    expect((await p.post(`${repos()}/nope-${unique()}/issues`, { title: 'x' })).body).toEqual({
      error: 'Repository not found',
    });
    for (const bad of ['0', 'abc', '-1', '1.5', '99999999999']) {
      const res = await p.get(`${base}/${bad}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Not found' });
    }
    const missing = await p.get(`${base}/7`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Issue not found' });
  });

  it('a number held by a pull request is not an issue', async () => {
    const { base, repoId } = await newRepo();
    await db.send(
      new PutCommand({
        TableName: TABLE(),
        Item: { pk: `REPOID#${repoId}`, sk: `NUM#${'1'.padStart(10, '0')}`, kind: 'pull', number: 1 },
      }),
    );
    expect((await p.get(`${base}/1`)).body).toEqual({ error: 'Issue not found' });
    expect((await p.patch(`${base}/1`, { title: 'x' })).body).toEqual({ error: 'Issue not found' });
    expect((await p.post(`${base}/1/comments`, { body: 'x' })).body).toEqual({ error: 'Issue not found' });
  });
});

describe('numbers', () => {
  it('50 parallel creates get 50 distinct numbers, 1 to 50, and the open count follows', async () => {
    const { base, name, repoId } = await newRepo();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => p.post(base, { title: `Issue ${i}` })));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    const numbers = answers.map((a) => a.body.issue.number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await p.get(`${repos()}/${name}`)).body.openIssues).toBe(50);
    const record = await getItem<{ lastNumber: number }>(resourceKey(p.org.orgId, 'repository', repoId));
    expect(record?.lastNumber).toBe(50);
  });

  it('numbers already taken are skipped; three taken in a row is the spec 409', async () => {
    const { base, repoId } = await newRepo();
    const take = (number: number) =>
      db.send(
        new PutCommand({
          TableName: TABLE(),
          Item: { pk: `REPOID#${repoId}`, sk: `NUM#${String(number).padStart(10, '0')}`, kind: 'pull', number },
        }),
      );
    // The counter behind items that exist (as after a restore): 1 and 2 are taken.
    await Promise.all([take(1), take(2)]);
    const skipped = await p.post(base, { title: 'Third' });
    expect(skipped.status).toBe(201);
    expect(skipped.body.issue.number).toBe(3);
    await Promise.all([take(4), take(5), take(6)]);
    const refused = await p.post(base, { title: 'No room' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'Could not create the issue. Try again.' });
    expect((await p.post(base, { title: 'Seventh' })).body.issue.number).toBe(7);
  });
});

describe('list', () => {
  it('newest first, open by default; filters by state, label, author and assignee (id or handle)', async () => {
    const { base } = await newRepo();
    const people = (await p.get(`${repos()}/-/people`)).body.people as { userId: string; handle: string }[];
    const devHandle = (people.find((x) => x.userId === developer.userId) as { handle: string }).handle;
    await p.post(base, { title: 'A', labels: ['bug'] });
    await p.post(base, { title: 'B', assignees: [developer.userId] }, { token: viewer.token });
    const c = await p.post(base, { title: 'C', labels: ['bug', 'ui'] });
    await p.patch(`${base}/${c.body.issue.number}`, { state: 'closed' });
    const titles = async (q: string) =>
      ((await p.get(`${base}${q}`)).body.issues as { title: string }[]).map((i) => i.title);
    expect(await titles('')).toEqual(['B', 'A']);
    expect(await titles('?state=closed')).toEqual(['C']);
    expect(await titles('?label=bug')).toEqual(['A']);
    expect(await titles(`?author=${viewer.userId}`)).toEqual(['B']);
    expect(await titles(`?assignee=${devHandle}`)).toEqual(['B']);
    expect(await titles(`?assignee=${developer.userId}`)).toEqual(['B']);
    expect(await titles('?assignee=nobody')).toEqual([]);
  });

  it('pages with a signed cursor; a forged one is 400', async () => {
    const { base } = await newRepo();
    for (let i = 1; i <= 7; i++) await p.post(base, { title: `I${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { issues: { title: string }[]; cursor: string | null } } = await p.get(
        `${base}?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      seen.push(...res.body.issues.map((i) => i.title));
      cursor = res.body.cursor;
    } while (cursor);
    expect(seen).toEqual(['I7', 'I6', 'I5', 'I4', 'I3', 'I2', 'I1']);
    const forged = await p.get(`${base}?cursor=abc.def`);
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });
  });
});

describe('change', () => {
  it('the author or git:write may change an issue; others get the spec 403', async () => {
    const { base } = await newRepo();
    const mine = await p.post(base, { title: 'Mine' }, { token: viewer.token });
    const number = mine.body.issue.number;
    const byAuthor = await p.patch(`${base}/${number}`, { title: 'Mine, edited' }, { token: viewer.token });
    expect(byAuthor.status).toBe(200);
    expect(byAuthor.body.issue.title).toBe('Mine, edited');
    const theirs = await p.post(base, { title: 'Theirs' });
    const refused = await p.patch(`${base}/${theirs.body.issue.number}`, { title: 'x' }, { token: viewer.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Only the author or members with git:write can change this issue.' });
    const byWriter = await p.patch(`${base}/${number}`, { labels: ['triaged'] }, { token: developer.token });
    expect(byWriter.status).toBe(200);
    expect(byWriter.body.issue).toMatchObject({ title: 'Mine, edited', labels: ['triaged'] });
  });

  it('closing sets closedAt and closedBy, reopening clears them; the open count follows', async () => {
    const { base, name } = await newRepo();
    const made = await p.post(base, { title: 'Close me' });
    const closed = await p.patch(`${base}/1`, { state: 'closed' }, { token: developer.token });
    expect(closed.body.issue).toMatchObject({
      state: 'closed',
      closedAt: expect.any(Number),
      closedBy: developer.userId,
    });
    expect((await p.get(`${repos()}/${name}`)).body.openIssues).toBe(0);
    const reopened = await p.patch(`${base}/1`, { state: 'open' });
    expect(reopened.body.issue.state).toBe('open');
    expect(reopened.body.issue).not.toHaveProperty('closedAt');
    expect(reopened.body.issue).not.toHaveProperty('closedBy');
    expect((await p.get(`${repos()}/${name}`)).body.openIssues).toBe(1);
    expect((await p.get(`${base}/1`)).body.issue).toEqual({
      ...reopened.body.issue,
      createdAt: made.body.issue.createdAt,
    });
    const stranger = await p.patch(`${base}/1`, { assignees: ['usr_nobody'] });
    expect(stranger.status).toBe(400);
    expect(stranger.body).toEqual({ error: 'Assignees must be members of this organization.' });
  });

  it('20 parallel changes: each 200 or the spec 409, and the issue is one 200’s answer', async () => {
    const { base } = await newRepo();
    await p.post(base, { title: 'Race' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => p.patch(`${base}/1`, { title: `Title ${i}`, labels: [`l${i}`] })),
    );
    for (const a of answers) {
      expect([200, 409]).toContain(a.status);
      if (a.status === 409) expect(a.body).toEqual({ error: 'The issue changed. Reload and try again.' });
    }
    const winners = answers.filter((a) => a.status === 200).map((a) => a.body.issue);
    expect(winners.length).toBeGreaterThan(0);
    const stored = (await p.get(`${base}/1`)).body.issue;
    expect(winners).toContainEqual(stored);
  });
});

describe('comments', () => {
  it('adds comments, trimmed, counted on the issue, listed oldest first', async () => {
    const { base, repoId } = await newRepo();
    await p.post(base, { title: 'Talk' });
    const first = await p.post(`${base}/1/comments`, { body: '  First!  ' }, { token: viewer.token });
    expect(first.status).toBe(201);
    expect(first.body.comment).toEqual({
      commentId: expect.stringMatching(/^cmt_/),
      number: 1,
      orgId: p.org.orgId,
      repoId,
      body: 'First!',
      authorId: viewer.userId,
      authorEmail: viewer.email,
      authorName: 'Test viewer',
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
    });
    await Promise.all(Array.from({ length: 10 }, (_, i) => p.post(`${base}/1/comments`, { body: `c${i}` })));
    const got = await p.get(`${base}/1`);
    expect(got.body.issue.comments).toBe(11);
    expect(got.body.comments).toHaveLength(11);
    expect(got.body.comments[0]).toEqual(first.body.comment);
    expect((await p.post(`${base}/1/comments`, { body: '   ' })).status).toBe(400);
    expect((await p.post(`${base}/1/comments`, { body: 'x'.repeat(65_537) })).status).toBe(400);
    expect((await p.post(`${base}/9/comments`, { body: 'x' })).body).toEqual({ error: 'Issue not found' });
    expect((await p.post(`${base}/x/comments`, { body: 'x' })).body).toEqual({ error: 'Not found' });
  });

  it('an issue goes with its repository', async () => {
    const { base, name, repoId } = await newRepo();
    await p.post(base, { title: 'Gone soon' });
    expect((await p.delete(`${repos()}/${name}?confirm=${name}`)).status).toBe(204);
    expect(await getItem({ pk: `REPOID#${repoId}`, sk: `NUM#${'1'.padStart(10, '0')}` })).toBeUndefined();
  });
});

describe('notifications', () => {
  const noticesOf = async (person: Person, event: string) =>
    ((await p.get('/v1/me/notifications', { token: person.token })).body.notices ?? []).filter(
      (x: { event: string }) => x.event === event,
    ) as { event: string; title: string; body?: string }[];

  it('new assignees get issue.assigned once, members named in a body issue.mentioned; never the one who did it', async () => {
    const { org, owner } = await p.newOrg();
    const [ada, bob] = [await p.person('developer', org.orgId), await p.person('viewer', org.orgId)];
    const handles = new Map((await listPeople(org.orgId)).map((x) => [x.userId, x.handle]));
    const name = unique();
    expect((await p.post(`/v1/orgs/${org.orgId}/repos`, { name }, { token: owner.token })).status).toBe(201);
    const base = `/v1/orgs/${org.orgId}/repos/${name}/issues`;
    const made = await p.post(
      base,
      { title: 'Flaky build', body: `@${handles.get(bob.userId)} saw it too`, assignees: [ada.userId] },
      { token: owner.token },
    );
    expect(made.status).toBe(201);
    const assigned = await until(async () => (await noticesOf(ada, 'issue.assigned'))[0]);
    expect(assigned.title).toBe(`#1 in ${name}: Flaky build`);
    const mentioned = await until(async () => (await noticesOf(bob, 'issue.mentioned'))[0]);
    expect(mentioned.body).toBe(`@${handles.get(bob.userId)} saw it too`);

    // Bob and the owner join Ada: Bob is told, Ada (already assigned) and the owner (who did it) are not.
    const changed = await p.patch(
      `${base}/1`,
      { assignees: [ada.userId, bob.userId, owner.userId] },
      { token: owner.token },
    );
    expect(changed.status).toBe(200);
    await until(async () => (await noticesOf(bob, 'issue.assigned'))[0]);
    expect(await noticesOf(ada, 'issue.assigned')).toHaveLength(1);
    expect(await noticesOf(owner, 'issue.assigned')).toEqual([]);

    // An edited body names Ada: a mention; the owner naming themself is not.
    const edited = await p.patch(
      `${base}/1`,
      { body: `@${handles.get(ada.userId)} and @${handles.get(owner.userId)}, a fix?` },
      { token: owner.token },
    );
    expect(edited.status).toBe(200);
    await until(async () => (await noticesOf(ada, 'issue.mentioned'))[0]);
    expect(await noticesOf(owner, 'issue.mentioned')).toEqual([]);
  });
});
