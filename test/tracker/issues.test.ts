import type { Person, TestPlatform } from '../helpers/platform';
import { paths, trackerPlatform } from './platform';

/** Issues: create (catalogs, people, parent, counter), get by key or id, edits, access, labels, search. */
let p: TestPlatform;
let developer: Person;
let viewer: Person;
let t: ReturnType<typeof paths>;

beforeAll(async () => {
  p = await trackerPlatform('tracker-issues');
  t = paths(p);
  developer = await p.person('developer');
  viewer = await p.person('viewer');
  expect((await p.post(t.spaces, { key: 'WEB', name: 'Website', template: 'scrum' })).status).toBe(201);
  expect((await p.post(t.spaces, { key: 'OPS', name: 'Operations', template: 'bugs' })).status).toBe(201);
});
afterAll(() => p.close());

const create = async (body: Record<string, unknown>, token?: string) => {
  const res = await p.post(t.base, body, token ? { token } : undefined);
  expect(res.status).toBe(201);
  return res.body.issue;
};

describe('create and get', () => {
  it('creates an issue with catalog names, people by email, estimates and a parent by key', async () => {
    const epic = await create({ space: 'WEB', summary: 'Checkout', type: 'Epic' });
    expect(epic).toMatchObject({
      key: expect.stringMatching(/^WEB-\d+$/),
      typeId: 'epic',
      statusId: 'todo',
      statusCategory: 'todo',
    });
    const story = await create({
      space: 'web',
      summary: '  Pay by card  ',
      type: 'story',
      priority: 'High',
      assignee: developer.email,
      reporter: p.owner.userId,
      labels: ['payments', 'q3'],
      originalEstimate: '1d 2h',
      remainingEstimate: 3600,
      storyPoints: 5,
      dueDate: '2026-12-31',
      parent: epic.key,
      description: 'Cards only. Ask @nobody',
      fields: { team: 'blue', flags: ['a'] },
    });
    expect(story).toMatchObject({
      summary: 'Pay by card',
      typeId: 'story',
      priorityId: 'high',
      assigneeId: developer.userId,
      reporterId: p.owner.userId,
      creatorId: p.owner.userId,
      labels: ['payments', 'q3'],
      originalEstimate: 10 * 3600,
      remainingEstimate: 3600,
      storyPoints: 5,
      dueDate: '2026-12-31',
      parentId: epic.issueId,
      excerpt: 'Cards only. Ask @nobody',
      fields: { team: 'blue', flags: ['a'] },
      statusLog: [['todo', expect.any(Number), p.owner.userId]],
      version: 1,
    });
    const page = await p.get(t.issue(story.key));
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      issue: { issueId: story.issueId, key: story.key },
      space: { key: 'WEB' },
      description: 'Cards only. Ask @nobody',
      parent: { key: epic.key },
      comments: [],
      children: [],
    });
    expect(page.body.transitions.map((x: { to: string }) => x.to)).toEqual(['inprogress', 'inreview', 'done']);
    const byId = await p.get(t.issue(story.issueId));
    expect(byId.body.issue.key).toBe(story.key);
    const epicPage = await p.get(t.issue(epic.key));
    expect(epicPage.body.children.map((c: { key: string }) => c.key)).toEqual([story.key]);
  });

  it('answers 400 for unknown catalog values, people and parents, and a subtask without a parent', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'Saga' }, 'Unknown issue type: Saga'],
      [{ priority: 'Urgent' }, 'Unknown priority: Urgent'],
      [{ assignee: 'nobody@example.com' }, 'Unknown person in assignee: nobody@example.com'],
      [{ parent: 'WEB-9999' }, 'Unknown parent issue: WEB-9999'],
      [{ type: 'Subtask' }, 'A subtask needs a parent issue.'],
      [{ components: ['Frontend'] }, 'Unknown component: Frontend'],
      [{ originalEstimate: 'soon' }, 'originalEstimate takes seconds or a duration such as 1w 2d 3h 30m.'],
      [{ sprint: 'Sprint 99' }, 'Unknown or closed sprint: Sprint 99'],
    ];
    for (const [extra, error] of cases) {
      const res = await p.post(t.base, { space: 'WEB', summary: 'x', ...extra });
      expect([res.status, res.body.error]).toEqual([400, error]);
    }
    expect((await p.post(t.base, { space: 'WEB', summary: '' })).status).toBe(400);
    expect((await p.post(t.base, { space: 'WEB', summary: 'x'.repeat(256) })).status).toBe(400);
    expect(
      (await p.post(t.base, { space: 'WEB', summary: 'x', labels: Array.from({ length: 31 }, (_, i) => `l${i}`) }))
        .status,
    ).toBe(400);
    expect((await p.post(t.base, { space: 'WEB', summary: 'x', storyPoints: 10_001 })).status).toBe(400);
    expect((await p.post(t.base, { space: 'WEB', summary: 'x', dueDate: '31/12/2026' })).status).toBe(400);
    const missing = await p.post(t.base, { space: 'NOPE', summary: 'x' });
    expect([missing.status, missing.body.error]).toEqual([404, 'Space not found']);
    const viewerTry = await p.post(t.base, { space: 'WEB', summary: 'x' }, { token: viewer.token });
    expect(viewerTry.status).toBe(403);
    expect((await p.get(t.issue('WEB-99999'))).status).toBe(404);
    expect((await p.get(t.issue('iss_00000000000000000000000000'))).status).toBe(404);
  });

  it('gives 50 parallel creates the numbers 1-50', async () => {
    await p.post(t.spaces, { key: 'PAR', name: 'Parallel', template: 'basic' });
    const made = await Promise.all(
      Array.from({ length: 50 }, (_, i) => p.post(t.base, { space: 'PAR', summary: `Issue ${i}` })),
    );
    expect(made.map((r) => r.status).every((s) => s === 201)).toBe(true);
    const numbers = made.map((r) => r.body.issue.number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const ranks = new Set(made.map((r) => r.body.issue.rank));
    expect(ranks.size).toBe(50);
    expect((await p.get(t.space('PAR'))).body.space.seq).toBe(50);
  });
});

describe('edits', () => {
  it('writes only the changed fields, bumps the version, and refuses edits of others without permission', async () => {
    const issue = await create({ space: 'WEB', summary: 'Edit me', labels: ['a'] });
    const same = await p.put(t.issue(issue.key), { summary: 'Edit me', labels: ['a'] });
    expect(same.status).toBe(200);
    expect(same.body.issue.version).toBe(1);
    const changed = await p.put(t.issue(issue.key), { summary: 'Edited', priority: null, assignee: developer.userId });
    expect(changed.body.issue).toMatchObject({ summary: 'Edited', version: 2, assigneeId: developer.userId });
    expect(changed.body.issue.priorityId).toBeUndefined();
    const asViewer = await p.put(t.issue(issue.key), { summary: 'No' }, { token: viewer.token });
    expect(asViewer.status).toBe(403);
    // The history WAS and CHANGED read: who changed what, and from what.
    expect(changed.body.issue.fieldLog).toEqual([
      ['assignee', [], [developer.userId], expect.any(Number), p.owner.userId],
      ['priority', ['medium'], [], expect.any(Number), p.owner.userId],
    ]);
    await p.post(`${t.issue(issue.key)}/transitions`, { transition: 'In Progress' }, { token: developer.token });
    const keys = async (jql: string) =>
      (await p.get(`${t.base}?jql=${encodeURIComponent(`key = ${issue.key} AND ${jql}`)}`)).body.issues.length;
    expect(await keys(`assignee CHANGED FROM EMPTY TO "${developer.email}" BY currentUser()`)).toBe(1);
    expect(await keys(`assignee CHANGED BY "${developer.email}"`)).toBe(0);
    expect(await keys('priority WAS Medium')).toBe(1);
    expect(await keys(`status CHANGED TO "In Progress" BY "${developer.email}"`)).toBe(1);
    expect(await keys('status WAS "To Do" BY currentUser()')).toBe(1);
    expect(await keys('status WAS "In Progress" BY currentUser()')).toBe(0);
    const bad = await p.put(t.issue(issue.key), { type: 'Nope' });
    expect(bad.status).toBe(400);
  });
});

describe('access', () => {
  it('hides an issue under a security level from every read, and from totals', async () => {
    await p.post(t.spaces, { key: 'SEC', name: 'Secure', template: 'basic' });
    await p.patch(t.space('SEC'), {
      config: { securityLevels: [{ id: 'owners', name: 'Owners', grants: [{ type: 'orgRole', role: 'owner' }] }] },
    });
    const open = await create({ space: 'SEC', summary: 'Open one', labels: ['shared'] });
    const hidden = await create({ space: 'SEC', summary: 'Hidden one', securityLevel: 'Owners', labels: ['secret'] });
    expect(hidden.securityLevelId).toBe('owners');
    expect((await p.get(t.issue(hidden.key))).status).toBe(200);
    expect((await p.get(t.issue(hidden.key), { token: developer.token })).status).toBe(404);
    expect((await p.get(t.issue(hidden.issueId), { token: developer.token })).status).toBe(404);
    expect((await p.get(t.issue(open.key), { token: developer.token })).status).toBe(200);
    const search = await p.get(`${t.base}?jql=${encodeURIComponent('space = SEC')}`, { token: developer.token });
    expect(search.status).toBe(200);
    expect(search.body.total).toBe(1);
    expect(search.body.issues.map((i: { key: string }) => i.key)).toEqual([open.key]);
    const all = await p.get(`${t.base}?jql=${encodeURIComponent('space = SEC')}`);
    expect(all.body.total).toBe(2);
    const labels = await p.get(`${t.base}/labels?space=SEC`, { token: developer.token });
    expect(labels.body.labels).toEqual(['shared']);
  });
});

describe('labels and search', () => {
  it('lists labels most used first', async () => {
    await p.post(t.spaces, { key: 'LAB', name: 'Labels', template: 'basic' });
    await create({ space: 'LAB', summary: 'a', labels: ['rare', 'common'] });
    await create({ space: 'LAB', summary: 'b', labels: ['common'] });
    const res = await p.get(`${t.base}/labels?space=LAB`);
    expect(res.body).toEqual({ labels: ['common', 'rare'] });
    expect((await p.get(`${t.base}/labels?space=NOPE`)).status).toBe(404);
    expect((await p.get(`${t.base}/labels`)).body.labels).toContain('common');
  });

  it('searches with JQL, pages, orders, and answers a bad query with its position', async () => {
    await p.post(t.spaces, { key: 'SRCH', name: 'Search', template: 'basic' });
    for (let i = 1; i <= 5; i++)
      await create({ space: 'SRCH', summary: `Item ${i}`, storyPoints: i, assignee: i % 2 ? developer.email : null });
    const q = (jql: string, extra = '') => p.get(`${t.base}?jql=${encodeURIComponent(jql)}${extra}`);
    const mine = await q('space = SRCH AND assignee = currentUser() ORDER BY key ASC', '');
    expect(mine.body.total).toBe(0);
    const dev = await p.get(
      `${t.base}?jql=${encodeURIComponent('space = SRCH AND assignee = currentUser() ORDER BY key')}`,
      { token: developer.token },
    );
    expect(dev.body.issues.map((i: { key: string }) => i.key)).toEqual(['SRCH-1', 'SRCH-3', 'SRCH-5']);
    const paged = await q('space = SRCH ORDER BY storyPoints DESC', '&startAt=1&maxResults=2');
    expect(paged.body).toMatchObject({ total: 5, startAt: 1, maxResults: 2 });
    expect(paged.body.issues.map((i: { key: string }) => i.key)).toEqual(['SRCH-4', 'SRCH-3']);
    expect(paged.body.scanned).toBe(5);
    // Space and status narrow the index read itself: only that status's issues are read.
    await p.post(`${t.issue('SRCH-2')}/transitions`, { transition: 'In Progress' });
    const narrowed = await q('space = SRCH AND status = "In Progress"');
    expect(narrowed.body).toMatchObject({ total: 1, scanned: 1 });
    expect((await q('space = SRCH AND status = "To Do"')).body).toMatchObject({ total: 4, scanned: 4 });
    // Only a space and statuses, newest first: total counted on the index, only the page read.
    const page = await q('space = SRCH AND status in ("To Do", "In Progress")', '&maxResults=2');
    expect(page.body).toMatchObject({ total: 5, scanned: 3 });
    expect(page.body.issues.map((i: { key: string }) => i.key)).toEqual(['SRCH-2', 'SRCH-5']);
    const byKey = await q('key = SRCH-2');
    expect(byKey.body).toMatchObject({ total: 1, scanned: 1 });
    const ordered = await q('space = SRCH', '&order=key');
    expect(ordered.body.issues.map((i: { key: string }) => i.key)).toEqual([
      'SRCH-1',
      'SRCH-2',
      'SRCH-3',
      'SRCH-4',
      'SRCH-5',
    ]);
    // remember=1 keeps the issue in the caller's history (Jira's updateHistory): issueHistory(), lastViewed.
    const dq = async (jql: string) =>
      (await p.get(`${t.base}?jql=${encodeURIComponent(jql)}`, { token: developer.token })).body.issues.map(
        (i: { key: string }) => i.key,
      );
    await p.get(`${t.issue('SRCH-3')}?remember=1`, { token: developer.token });
    await p.get(`${t.issue('SRCH-1')}?remember=1`, { token: developer.token });
    await p.get(t.issue('SRCH-5'), { token: developer.token });
    await p.get(`${t.issue('SRCH-4')}?remember=0`, { token: developer.token });
    await p.get(`${t.issue('SRCH-3')}?remember=1`, { token: developer.token });
    expect(await dq('issue in issueHistory() ORDER BY key')).toEqual(['SRCH-1', 'SRCH-3']);
    expect(await dq('lastViewed IS NOT EMPTY ORDER BY lastViewed DESC')).toEqual(['SRCH-3', 'SRCH-1']);
    expect(await dq('space = SRCH AND lastViewed IS EMPTY ORDER BY key')).toEqual(['SRCH-2', 'SRCH-4', 'SRCH-5']);
    // Each person's own: the owner viewed nothing.
    expect((await q('issue in issueHistory()')).body.total).toBe(0);
    const posted = await p.post(`${t.base}/search`, { jql: 'space = SRCH AND storyPoints >= 4', order: 'key' });
    expect(posted.status).toBe(200);
    expect(posted.body.issues.map((i: { key: string }) => i.key)).toEqual(['SRCH-4', 'SRCH-5']);
    const bad = await q('space = ');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ line: 1, column: expect.any(Number) });
    const unknown = await q('colour = red');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('colour');
    expect((await p.get(`${t.base}?maxResults=0`)).status).toBe(400);
    expect((await p.get(`${t.base}?startAt=0x10`)).status).toBe(400);
    expect((await p.post(`${t.base}/search`, { jql: 'x'.repeat(10_001) })).status).toBe(400);
  });

  it('orders and compares priority by the scheme, as Jira does: DESC lists the highest first', async () => {
    await p.post(t.spaces, { key: 'PRIO', name: 'Priorities', template: 'basic' });
    for (const priority of ['Low', 'Highest', 'Lowest', 'Medium', 'High']) {
      await create({ space: 'PRIO', summary: priority, priority });
    }
    const none = await create({ space: 'PRIO', summary: 'None' });
    expect((await p.put(t.issue(none.key), { priority: null })).status).toBe(200);
    const summaries = async (jql: string) => {
      const res = await p.get(`${t.base}?jql=${encodeURIComponent(`space = PRIO AND ${jql}`)}`);
      expect(res.status).toBe(200);
      return res.body.issues.map((i: { summary: string }) => i.summary);
    };
    const scheme = ['Highest', 'High', 'Medium', 'Low', 'Lowest'];
    expect(await summaries('priority IS NOT EMPTY ORDER BY priority DESC')).toEqual(scheme);
    expect(await summaries('priority IS NOT EMPTY ORDER BY priority ASC')).toEqual([...scheme].reverse());
    expect(await summaries('priority > Medium ORDER BY priority DESC')).toEqual(['Highest', 'High']);
    expect(await summaries('priority >= medium ORDER BY priority DESC')).toEqual(['Highest', 'High', 'Medium']);
    expect(await summaries('priority < Medium ORDER BY priority DESC')).toEqual(['Low', 'Lowest']);
    expect(await summaries('priority <= "Low" ORDER BY priority DESC')).toEqual(['Low', 'Lowest']);
    expect(await summaries('priority > Highest')).toEqual([]);
    // An issue without a priority is neither above nor below any: as = and != in Jira.
    expect(await summaries('priority > Lowest ORDER BY priority')).toEqual(['Low', 'Medium', 'High', 'Highest']);
    expect(await summaries('NOT priority < High ORDER BY priority DESC')).toEqual(['Highest', 'High']);
    for (const [jql, error] of [
      ['priority > Urgent', 'The value "Urgent" does not exist for the field "priority".'],
      ['priority ~ High', 'The operator "~" is not supported by the field "priority".'],
      ['priority >= EMPTY', 'The operator ">=" takes one value.'],
    ]) {
      const res = await p.get(`${t.base}?jql=${encodeURIComponent(jql as string)}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
    }
  });
});
