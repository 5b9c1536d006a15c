import type { Person, TestPlatform } from '../helpers/platform';
import { paths, trackerPlatform } from './platform';

/** An issue's parts: comments, worklogs, links, attachments, transitions; a space's versions and components. */
let p: TestPlatform;
let t: ReturnType<typeof paths>;
let developer: Person;
let viewer: Person;
let a: { key: string; issueId: string };
let b: { key: string; issueId: string };

beforeAll(async () => {
  p = await trackerPlatform('tracker-parts');
  t = paths(p);
  developer = await p.person('developer');
  viewer = await p.person('viewer');
  await p.post(t.spaces, { key: 'PRT', name: 'Parts', template: 'bugs' });
  a = (await p.post(t.base, { space: 'PRT', summary: 'A', remainingEstimate: '2h' })).body.issue;
  b = (await p.post(t.base, { space: 'PRT', summary: 'B' })).body.issue;
});
afterAll(() => p.close());

it('comments: add, list, edit by the author only, delete; counts on the issue', async () => {
  const added = await p.post(`${t.issue(a.key)}/comments`, { body: 'First look' }, { token: developer.token });
  expect(added.status).toBe(201);
  const comment = added.body.comment;
  expect(comment).toMatchObject({ body: 'First look', authorId: developer.userId });
  expect((await p.get(t.issue(a.key))).body.issue.commentCount).toBe(1);
  const list = await p.get(`${t.issue(a.key)}/comments`);
  expect(list.body.comments.map((c: { commentId: string }) => c.commentId)).toEqual([comment.commentId]);
  const other = await p.person('developer');
  const refused = await p.patch(
    `${t.issue(a.key)}/comments/${comment.commentId}`,
    { body: 'Mine now' },
    { token: other.token },
  );
  expect([refused.status, refused.body.error]).toEqual([403, "You can't change this comment."]);
  const edited = await p.patch(
    `${t.issue(a.key)}/comments/${comment.commentId}`,
    { body: 'Second look' },
    { token: developer.token },
  );
  expect(edited.body.comment.body).toBe('Second look');
  // JQL: `comment ~` reads the comments, and `text ~` too (as in Jira); the issue's own fields don't say it.
  const search = async (jql: string) =>
    (await p.get(`${t.base}?jql=${encodeURIComponent(`space = PRT AND ${jql}`)}`)).body.issues.map(
      (i: { key: string }) => i.key,
    );
  expect(await search('comment ~ second')).toEqual([a.key]);
  expect(await search('text ~ "second look"')).toEqual([a.key]);
  expect(await search('comment ~ first')).toEqual([]);
  expect(await search('summary ~ second')).toEqual([]);
  expect((await p.post(`${t.issue(a.key)}/comments`, { body: 'x' }, { token: viewer.token })).status).toBe(403);
  expect((await p.post(`${t.issue(a.key)}/comments`, { body: '' })).status).toBe(400);
  expect((await p.delete(`${t.issue(a.key)}/comments/${comment.commentId}`)).status).toBe(204);
  expect((await p.delete(`${t.issue(a.key)}/comments/${comment.commentId}`)).status).toBe(404);
  expect((await p.get(`${t.issue('PRT-999')}/comments`)).status).toBe(404);
  expect((await p.get(t.issue(a.key))).body.issue.commentCount).toBe(0);
});

it('worklogs: time spent grows, the remaining estimate shrinks', async () => {
  const logged = await p.post(`${t.issue(a.key)}/worklogs`, { timeSpent: '30m', comment: 'Triage' });
  expect(logged.status).toBe(201);
  expect(logged.body.worklog).toMatchObject({ timeSpent: 1800, comment: 'Triage' });
  expect(logged.body.issue).toMatchObject({ timeSpent: 1800, remainingEstimate: 5400 });
  await p.post(`${t.issue(a.key)}/worklogs`, { timeSpent: 7200 });
  expect((await p.get(t.issue(a.key))).body.issue).toMatchObject({ timeSpent: 9000, remainingEstimate: 0 });
  expect((await p.get(`${t.issue(a.key)}/worklogs`)).body.worklogs.length).toBe(2);
  const bad = await p.post(`${t.issue(a.key)}/worklogs`, { timeSpent: 'a while' });
  expect([bad.status, bad.body.error]).toEqual([400, 'timeSpent takes seconds or a duration such as 1w 2d 3h 30m.']);
});

it('links show on both issues and go from both', async () => {
  const linked = await p.post(`${t.issue(a.key)}/links`, { type: 'blocks', issue: b.key });
  expect(linked.status).toBe(201);
  expect(linked.body.link).toMatchObject({ type: 'blocks', direction: 'outward', issueId: b.issueId, label: 'blocks' });
  const pageB = await p.get(t.issue(b.key));
  expect(pageB.body.links).toEqual([
    expect.objectContaining({ label: 'is blocked by', issue: expect.objectContaining({ key: a.key }) }),
  ]);
  expect((await p.post(`${t.issue(a.key)}/links`, { type: 'blocks', issue: b.key })).status).toBe(409);
  expect((await p.post(`${t.issue(a.key)}/links`, { type: 'loves', issue: b.key })).status).toBe(400);
  expect((await p.post(`${t.issue(a.key)}/links`, { type: 'relates', issue: a.key })).status).toBe(400);
  expect((await p.post(`${t.issue(a.key)}/links`, { type: 'relates', issue: 'PRT-999' })).status).toBe(400);
  expect((await p.delete(`${t.issue(b.key)}/links/${linked.body.link.linkId}`)).status).toBe(204);
  expect((await p.get(t.issue(a.key))).body.links).toEqual([]);
  expect((await p.delete(`${t.issue(b.key)}/links/${linked.body.link.linkId}`)).status).toBe(404);
});

it('attachments travel by presigned link; the issue counts them once uploaded', async () => {
  const content = 'crash log\n';
  const started = await p.post(`${t.issue(a.key)}/attachments`, {
    filename: 'log.txt',
    contentType: 'text/plain',
    size: content.length,
  });
  expect(started.status).toBe(201);
  const { attachment, upload } = started.body;
  const early = await p.post(`${t.issue(a.key)}/attachments/${attachment.attachmentId}/complete`);
  expect([early.status, early.body.error]).toEqual([409, 'The file has not been uploaded yet.']);
  expect((await p.get(`${t.issue(a.key)}/attachments/${attachment.attachmentId}`)).status).toBe(404);
  const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: content });
  expect(put.status).toBe(200);
  const done = await p.post(`${t.issue(a.key)}/attachments/${attachment.attachmentId}/complete`);
  expect(done.body.attachment.uploaded).toBe(true);
  const link = await p.get(`${t.issue(a.key)}/attachments/${attachment.attachmentId}`);
  expect(await (await fetch(link.body.url)).text()).toBe(content);
  const page = await p.get(t.issue(a.key));
  expect(page.body.issue.attachmentCount).toBe(1);
  expect(page.body.attachments.map((x: { filename: string }) => x.filename)).toEqual(['log.txt']);
  expect(
    (await p.post(`${t.issue(a.key)}/attachments`, { filename: 'big', contentType: 'x/y', size: 200 * 1024 * 1024 }))
      .status,
  ).toBe(400);
  expect((await p.delete(`${t.issue(a.key)}/attachments/${attachment.attachmentId}`)).status).toBe(204);
  expect((await p.get(t.issue(a.key))).body.issue.attachmentCount).toBe(0);
  expect((await p.delete(`${t.issue(a.key)}/attachments/${attachment.attachmentId}`)).status).toBe(404);
});

it('transitions: listed with the fields they ask for; taken by id, name or status', async () => {
  const list = await p.get(`${t.issue(b.key)}/transitions`);
  expect(list.body.transitions.map((x: { id: string }) => x.id)).toEqual(['start', 'resolve', 'close']);
  expect(list.body.transitions[1]).toEqual({
    id: 'resolve',
    name: 'Resolve Issue',
    to: 'resolved',
    fields: ['resolution'],
  });
  const started = await p.post(`${t.issue(b.key)}/transitions`, { transition: 'Start Progress' });
  expect(started.body.issue.statusId).toBe('inprogress');
  const needs = await p.post(`${t.issue(b.key)}/transitions`, { transition: 'resolve' });
  expect(needs.status).toBe(409);
  expect(needs.body.fields).toEqual(['resolution']);
  const resolved = await p.post(`${t.issue(b.key)}/transitions`, {
    transition: 'Resolved',
    fields: { resolution: 'Duplicate' },
  });
  expect(resolved.body.issue).toMatchObject({
    statusId: 'resolved',
    resolutionId: 'duplicate',
    resolvedAt: expect.any(Number),
  });
  const none = await p.post(`${t.issue(b.key)}/transitions`, { transition: 'start' });
  expect(none.status).toBe(409);
  const search = await p.get(`${t.base}?jql=${encodeURIComponent('status WAS "In Progress" AND space = PRT')}`);
  expect(search.body.issues.map((i: { key: string }) => i.key)).toEqual([b.key]);
  expect(
    (await p.post(`${t.issue(b.key)}/transitions`, { transition: 'reopen' }, { token: viewer.token })).status,
  ).toBe(403);
});

it('versions and components: space administrators manage them; issues name them', async () => {
  const v = await p.post(`${t.space('PRT')}/versions`, { name: '1.0', releaseDate: '2026-12-01' });
  expect(v.status).toBe(201);
  expect(v.body.version).toMatchObject({ name: '1.0', released: false, position: 1 });
  expect((await p.post(`${t.space('PRT')}/versions`, { name: '1.0' })).status).toBe(409);
  expect((await p.post(`${t.space('PRT')}/versions`, { name: '2.0' }, { token: developer.token })).status).toBe(403);
  const c = await p.post(`${t.space('PRT')}/components`, { name: 'Backend' });
  expect(c.body.component).toMatchObject({ name: 'Backend', defaultAssignee: 'space' });
  expect((await p.post(`${t.space('PRT')}/components`, { name: 'backend' })).status).toBe(409);
  const issue = await p.post(t.base, {
    space: 'PRT',
    summary: 'Versioned',
    fixVersions: ['1.0'],
    components: ['backend'],
  });
  expect(issue.body.issue).toMatchObject({
    fixVersionIds: [v.body.version.versionId],
    componentIds: [c.body.component.componentId],
  });
  const byVersion = await p.get(`${t.base}?jql=${encodeURIComponent('fixVersion = "1.0" AND component = Backend')}`);
  expect(byVersion.body.issues.map((i: { key: string }) => i.key)).toEqual([issue.body.issue.key]);
  const released = await p.patch(`${t.space('PRT')}/versions/${v.body.version.versionId}`, { released: true });
  expect(released.body.version).toMatchObject({ released: true, releasedAt: expect.any(Number) });
  const renamed = await p.patch(`${t.space('PRT')}/components/${c.body.component.componentId}`, {
    name: 'API',
    defaultAssignee: 'lead',
  });
  expect(renamed.body.component).toMatchObject({ name: 'API', defaultAssignee: 'lead' });
  const space = await p.get(t.space('PRT'));
  expect(space.body.versions.map((x: { name: string }) => x.name)).toEqual(['1.0']);
  expect(space.body.components.map((x: { name: string }) => x.name)).toEqual(['API']);
  expect((await p.delete(`${t.space('PRT')}/versions/${v.body.version.versionId}`)).status).toBe(204);
  expect((await p.delete(`${t.space('PRT')}/components/${c.body.component.componentId}`)).status).toBe(204);
  expect((await p.delete(`${t.space('PRT')}/components/${c.body.component.componentId}`)).status).toBe(404);
  expect((await p.patch(`${t.space('PRT')}/versions/ver_nope`, { name: 'x' })).status).toBe(404);
  expect((await p.delete(`${t.space('PRT')}/versions/ver_nope`)).status).toBe(404);
  expect((await p.patch(`${t.space('PRT')}/components/cmp_nope`, { name: 'x' })).status).toBe(404);
});
