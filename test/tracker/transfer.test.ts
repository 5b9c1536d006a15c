import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Person, TestPlatform } from '../helpers/platform';
import { paths, trackerPlatform } from './platform';

/**
 * Import (Jira CSV in calls of 200 records, our JSON; the same call twice creates nothing twice)
 * and export (Jira's CSV layout, JSON), and a round trip export → import into a new space.
 */
const fixture = readFileSync(join(__dirname, '../fixtures/tracker/jira-cloud-export.csv'), 'utf8');
let p: TestPlatform;
let t: ReturnType<typeof paths>;
let developer: Person;

beforeAll(async () => {
  p = await trackerPlatform('tracker-transfer');
  t = paths(p);
  developer = await p.person('developer');
  await p.post(t.spaces, { key: 'ACME', name: 'Acme imported', template: 'scrum' });
});
afterAll(() => p.close());

const importCall = (body: Record<string, unknown>, token?: string) =>
  p.post(`${t.base}/import`, { space: 'ACME', format: 'csv', ...body }, token ? { token } : undefined);

describe('import', () => {
  it('imports a Jira Cloud CSV export: parents through keyMap, sprints, comments, warnings for unknown people', async () => {
    const res = await importCall({ content: fixture, createMissing: true });
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body).toMatchObject({ processed: body.total, done: true, nextRow: null });
    expect(body.total).toBeGreaterThan(3);
    const made = body.results.filter((r: { key?: string }) => r.key);
    expect(made.length).toBeGreaterThan(3);
    expect(body.keyMap['WEB-1']).toMatch(/^ACME-\d+$/);
    // People of the source site are not members here: warned about, left out.
    expect(
      body.results.some((r: { warnings?: string[] }) => r.warnings?.some((w) => w.startsWith('Unknown person'))),
    ).toBe(true);
    const story = (await p.get(t.issue(body.keyMap['WEB-2']))).body;
    const epic = (await p.get(t.issue(body.keyMap['WEB-1']))).body;
    expect(story.issue).toMatchObject({
      summary: 'Guest checkout without an account',
      typeId: 'story',
      priorityId: 'high',
      statusId: 'inprogress',
    });
    expect(story.issue.parentId).toBe(epic.issue.issueId);
    expect(story.issue.labels).toEqual(['checkout', 'ux']);
    expect(story.issue.originalEstimate).toBe(57600);
    expect(story.description).toContain('"just buy"');
    expect(story.comments.map((c: { body: string }) => c.body)).toEqual([
      'Design is in the shared folder; review by Friday please.',
      'Blocked by the coupon bug (WEB-4).\nWill pick it up after the fix.',
    ]);
    expect(story.issue.commentCount).toBe(2);
    expect(story.issue.sprintId).toMatch(/^spr_/);
    const subtask = (await p.get(t.issue(body.keyMap['WEB-3']))).body.issue;
    expect(subtask).toMatchObject({ typeId: 'subtask', parentId: story.issue.issueId });
    const space = (await p.get(t.space('ACME'))).body;
    expect(space.versions.map((v: { name: string }) => v.name)).toEqual(expect.arrayContaining(['2.4', '2.5']));
    expect(space.components.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['Frontend', 'Payments']),
    );
    // The same call again: the same keys, nothing created twice.
    const seq = space.space.seq;
    const again = await importCall({ content: fixture, createMissing: true });
    expect(again.body.keyMap).toEqual(body.keyMap);
    expect((await p.get(t.space('ACME'))).body.space.seq).toBe(seq);
  });

  it('goes 200 records a call with startRow and nextRow; refuses non-admins, bad files and 5 MB', async () => {
    await p.post(t.spaces, { key: 'BIG', name: 'Big', template: 'basic' });
    const rows = Array.from({ length: 205 }, (_, i) => `"Row ${i}",BIG-${i + 1},Task,"line one\r\nline two"`);
    const csv = `\ufeffSummary,Issue key,Issue Type,Description\r\n${rows.join('\r\n')}\r\n`;
    const first = await importCall({ space: 'BIG', content: csv });
    expect(first.body).toMatchObject({ total: 205, processed: 200, done: false, nextRow: 200 });
    const second = await importCall({ space: 'BIG', content: csv, startRow: 200, keyMap: first.body.keyMap });
    expect(second.body).toMatchObject({ total: 205, processed: 5, done: true, nextRow: null });
    expect(Object.keys(second.body.keyMap).length).toBe(205);
    expect((await p.get(t.issue(second.body.keyMap['BIG-205']))).body.description).toBe('line one\nline two');
    const notAdmin = await importCall({ space: 'BIG', content: csv }, developer.token);
    expect([notAdmin.status, notAdmin.body.error]).toEqual([
      403,
      'Only administrators of this space can import issues.',
    ]);
    const noSummary = await importCall({ space: 'BIG', content: 'Title\r\nx\r\n' });
    expect(noSummary.status).toBe(400);
    const badJson = await importCall({ space: 'BIG', format: 'json', content: '{not json' });
    expect(badJson.status).toBe(400);
    const big = await importCall({ space: 'BIG', content: `Summary\r\n${'x'.repeat(5_242_881)}` });
    expect([big.status, big.body.error]).toEqual([413, 'Import files can be up to 5 MB.']);
    expect((await importCall({ space: 'NOPE', content: csv })).status).toBe(404);
  });
});

describe('export', () => {
  it('writes Jira’s CSV layout with formula cells neutralised, and JSON; a round trip gives equal issues', async () => {
    await p.post(t.spaces, { key: 'EXP', name: 'Export', template: 'scrum' });
    const epic = (await p.post(t.base, { space: 'EXP', summary: 'Epic one', type: 'Epic' })).body.issue;
    const formula = (
      await p.post(t.base, {
        space: 'EXP',
        summary: '=HYPERLINK("http://x")',
        labels: ['a', 'b'],
        storyPoints: 3,
        parent: epic.key,
      })
    ).body.issue;
    const plain = (await p.post(t.base, { space: 'EXP', summary: 'Plain', priority: 'Low', description: 'Two\nlines' }))
      .body.issue;
    // Links: the epic blocks the formula issue, the plain one relates to the epic, the formula one duplicates the plain.
    for (const [from, type, to] of [
      [epic, 'blocks', formula],
      [plain, 'relates', epic],
      [formula, 'duplicates', plain],
    ] as const)
      expect((await p.post(`${t.issue(from.key)}/links`, { type, issue: to.key })).status).toBe(201);
    const csv = await p.get(`${t.base}/export?jql=${encodeURIComponent('space = EXP')}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const header = csv.text.replace(/^\ufeff/, '').split(/\r?\n/)[0] as string;
    expect(header.startsWith('Summary,Issue key,Issue id')).toBe(true);
    expect(header.split(',').filter((c) => c === 'Labels').length).toBe(2);
    expect(csv.text).not.toMatch(/(^|,)=HYPERLINK/m);
    // Links in Jira's columns, each side as it reads.
    expect(header.split(',').filter((c) => c.includes('issue link'))).toEqual([
      'Inward issue link (Blocks)',
      'Outward issue link (Blocks)',
      'Inward issue link (Duplicate)',
      'Outward issue link (Duplicate)',
      'Inward issue link (Relates)',
      'Outward issue link (Relates)',
    ]);
    const json = await p.get(`${t.base}/export?format=json&jql=${encodeURIComponent('space = EXP')}`);
    expect(json.body).toMatchObject({ format: 'tracker-issues/1', total: 3 });
    await p.post(t.spaces, { key: 'RT', name: 'Round trip', template: 'scrum' });
    const imported = await p.post(`${t.base}/import`, { space: 'RT', format: 'json', content: json.text });
    expect(imported.body.results.every((r: { key?: string }) => r.key)).toBe(true);
    const viaCsv = await p.post(t.spaces, { key: 'RTC', name: 'Round trip CSV', template: 'scrum' });
    expect(viaCsv.status).toBe(201);
    const fromCsv = await p.post(`${t.base}/import`, { space: 'RTC', format: 'csv', content: csv.text });
    expect(fromCsv.body.results.every((r: { key?: string }) => r.key)).toBe(true);
    const shape = async (space: string) => {
      const issues = (await p.get(`${t.base}?jql=${encodeURIComponent(`space = ${space} ORDER BY key`)}`)).body.issues;
      return Promise.all(
        issues.map(async (i: Record<string, unknown>) => ({
          number: i.number,
          summary: i.summary,
          typeId: i.typeId,
          statusId: i.statusId,
          priorityId: i.priorityId,
          labels: i.labels,
          storyPoints: i.storyPoints,
          parent: i.parentId ? 'yes' : 'no',
          links: (await p.get(t.issue(i.key as string))).body.links
            .map((l: { type: string; direction: string; issue: { key: string } }) =>
              [l.type, l.direction, l.issue.key.split('-')[1]].join(' '),
            )
            .sort(),
        })),
      );
    };
    const original = await shape('EXP');
    expect(original.map((i) => i.links)).toEqual([
      ['blocks outward 2', 'relates inward 3'],
      ['blocks inward 1', 'duplicates outward 3'],
      ['duplicates inward 2', 'relates outward 1'],
    ]);
    expect(await shape('RT')).toEqual(original);
    expect(await shape('RTC')).toEqual(original);
    const bad = await p.get(`${t.base}/export?jql=${encodeURIComponent('nonsense ===')}`);
    expect(bad.status).toBe(400);
  });
});
