import type { Person, TestPlatform } from '../helpers/platform';
import { paths, trackerPlatform } from './platform';

/** Spaces: templates, unique keys, get by key / former key / id, patch limits, access. */
let p: TestPlatform;
let viewer: Person;
let developer: Person;
let t: ReturnType<typeof paths>;

beforeAll(async () => {
  p = await trackerPlatform('tracker-spaces');
  t = paths(p);
  viewer = await p.person('viewer');
  developer = await p.person('developer');
});
afterAll(() => p.close());

describe('create', () => {
  it('creates a scrum space from its template with its board; the caller leads it', async () => {
    const res = await p.post(t.spaces, { key: ' web ', name: '  Website ', template: 'scrum', color: 'blue' });
    expect(res.status).toBe(201);
    const space = res.body.space;
    expect(space).toMatchObject({
      key: 'WEB',
      name: 'Website',
      template: 'scrum',
      leadId: p.owner.userId,
      archived: false,
      seq: 0,
      color: 'blue',
    });
    expect(space.spaceId).toMatch(/^spc_/);
    expect(space.config.issueTypeIds).toEqual(['epic', 'story', 'task', 'bug', 'subtask']);
    expect(space.config.workflows.story).toBe('software');
    expect(space.config.boardId).toMatch(/^brd_/);
    expect(space.config.servicedesk).toBeUndefined();
    const board = await p.get(t.board(space.config.boardId));
    expect(board.status).toBe(200);
    expect(board.body.board.config.type).toBe('scrum');
    expect(board.body.board.config.columns.map((c: { name: string }) => c.name)).toEqual([
      'To Do',
      'In Progress',
      'In Review',
      'Done',
    ]);
  });

  it('gives service spaces the two SLAs and bug spaces the classic workflow', async () => {
    const service = await p.post(t.spaces, { key: 'HELP', name: 'Help desk', template: 'service' });
    expect(service.body.space.config.servicedesk.slas.map((s: { name: string }) => s.name)).toEqual([
      'Time to first response',
      'Time to resolution',
    ]);
    const bugs = await p.post(t.spaces, { key: 'BUG', name: 'Bugs', template: 'bugs' });
    expect(bugs.body.space.config.workflows.bug).toBe('classic');
  });

  it('refuses a taken key (any case) with 409 and a malformed key with 400', async () => {
    await p.post(t.spaces, { key: 'DUP', name: 'One', template: 'basic' });
    const again = await p.post(t.spaces, { key: 'dup', name: 'Two', template: 'kanban' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('A space with this key already exists.');
    const bad = await p.post(t.spaces, { key: '1AB', name: 'Bad', template: 'basic' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('A space key starts with a letter and holds only letters and digits (2-10).');
    const short = await p.post(t.spaces, { key: 'A', name: 'Short', template: 'basic' });
    expect(short.status).toBe(400);
    const noTemplate = await p.post(t.spaces, { key: 'NOPE', name: 'x', template: 'agile' });
    expect(noTemplate.status).toBe(400);
  });

  it('takes the same key twice in parallel only once', async () => {
    const both = await Promise.all([
      p.post(t.spaces, { key: 'RACE', name: 'A', template: 'basic' }),
      p.post(t.spaces, { key: 'RACE', name: 'B', template: 'basic' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
  });
});

describe('get, list, patch', () => {
  it('gets a space by key, by id and by a former key after a rename; lists browsable spaces', async () => {
    const made = (await p.post(t.spaces, { key: 'OLD', name: 'Renamed', template: 'kanban' })).body.space;
    const issue = await p.post(t.base, { space: 'OLD', summary: 'Keeps its number' });
    expect(issue.body.issue.key).toBe('OLD-1');
    const renamed = await p.patch(t.space('OLD'), { key: 'NEW' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.space).toMatchObject({ key: 'NEW', config: { formerKeys: ['OLD'] } });
    for (const ref of ['NEW', 'old', made.spaceId]) {
      const got = await p.get(t.space(ref));
      expect(got.status).toBe(200);
      expect(got.body.space.key).toBe('NEW');
    }
    const got = await p.get(t.space('NEW'));
    expect(got.body.allPermissions).toEqual([
      'browse',
      'create',
      'edit',
      'editOwn',
      'transition',
      'assign',
      'assignable',
      'delete',
      'deleteOwn',
      'comment',
      'editComments',
      'deleteComments',
      'attach',
      'deleteAttachments',
      'link',
      'worklog',
      'manageWatchers',
      'manageSprints',
      'move',
      'administer',
      'serviceAgent',
    ]);
    expect(got.body.permissions).toMatchObject({ browse: true, administer: true, serviceAgent: false });
    expect(got.body).toMatchObject({ versions: [], components: [] });
    // No issue was rewritten: the old key and the new one both reach it, answered with the new key.
    for (const key of ['OLD-1', 'NEW-1']) {
      const i = await p.get(t.issue(key));
      expect(i.status).toBe(200);
      expect(i.body.issue.key).toBe('NEW-1');
    }
    // A former key stays the space's.
    const taken = await p.post(t.spaces, { key: 'OLD', name: 'Again', template: 'basic' });
    expect(taken.status).toBe(409);
    const list = await p.get(t.spaces);
    expect(list.body.spaces.map((s: { key: string }) => s.key)).toContain('NEW');
    expect((await p.get(t.space('NOSUCH'))).status).toBe(404);
    expect((await p.get(t.space('spc_00000000000000000000000000'))).status).toBe(404);
  });

  it('archives: hidden from the list unless archived=1', async () => {
    await p.post(t.spaces, { key: 'ARCH', name: 'Archive me', template: 'basic' });
    expect((await p.patch(t.space('ARCH'), { archived: true })).body.space.archived).toBe(true);
    const keysOf = (r: { body: { spaces: { key: string }[] } }) => r.body.spaces.map((s) => s.key);
    expect(keysOf(await p.get(t.spaces))).not.toContain('ARCH');
    expect(keysOf(await p.get(`${t.spaces}?archived=1`))).toContain('ARCH');
  });

  it('patches configuration within the limits, administrators only', async () => {
    await p.post(t.spaces, { key: 'CFG', name: 'Config', template: 'scrum' });
    const ok = await p.patch(t.space('CFG'), {
      name: 'Configured',
      config: {
        estimation: 'originalEstimate',
        securityLevels: [{ id: 'staff', name: 'Staff only', grants: [{ type: 'orgRole', role: 'owner' }] }],
        access: { visibility: 'org', members: [{ type: 'user', id: developer.userId, role: 'viewer' }] },
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.space).toMatchObject({ name: 'Configured', config: { estimation: 'originalEstimate' } });
    expect(ok.body.space.config.workflows.story).toBe('software');
    const tooMany = await p.patch(t.space('CFG'), {
      config: { issueTypeIds: Array.from({ length: 51 }, (_, i) => `t${i}`) },
    });
    expect(tooMany.status).toBe(400);
    const longName = await p.patch(t.space('CFG'), { name: 'x'.repeat(81) });
    expect(longName.status).toBe(400);
    const levels = await p.patch(t.space('CFG'), {
      config: { securityLevels: Array.from({ length: 21 }, (_, i) => ({ id: `l${i}`, name: 'L', grants: [] })) },
    });
    expect(levels.status).toBe(400);
    const badGrant = await p.patch(t.space('CFG'), {
      config: { securityLevels: [{ id: 'x', name: 'X', grants: [{ type: 'nobody' }] }] },
    });
    expect(badGrant.status).toBe(400);
    expect(badGrant.body.error).toBe('Unknown grant type: nobody');
    const screens = await p.patch(t.space('CFG'), { config: { screens: { create: {} } } });
    expect(screens.status).toBe(400);
    // The developer is now a listed viewer of CFG: it reads but may not change it.
    const asDev = await p.patch(t.space('CFG'), { name: 'Mine' }, { token: developer.token });
    expect(asDev.status).toBe(403);
    expect(asDev.body.error).toBe('Only administrators of this space can change it.');
    const perms = await p.get(t.space('CFG'), { token: developer.token });
    expect(perms.body.permissions).toMatchObject({ browse: true, create: false, administer: false });
    const rename = await p.patch(t.space('CFG'), { key: 'WEB' });
    expect(rename.status).toBe(409);
  });

  it('hides private spaces from members not listed', async () => {
    await p.post(t.spaces, { key: 'PRIV', name: 'Private', template: 'basic' });
    await p.patch(t.space('PRIV'), { config: { access: { visibility: 'private', members: [] } } });
    expect((await p.get(t.space('PRIV'), { token: developer.token })).status).toBe(404);
    const list = await p.get(t.spaces, { token: viewer.token });
    expect(list.body.spaces.map((s: { key: string }) => s.key)).not.toContain('PRIV');
    expect((await p.get(t.space('PRIV'))).status).toBe(200);
  });
});
