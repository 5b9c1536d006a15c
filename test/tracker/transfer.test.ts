import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { storage } from '../../shared/ports/object-storage';
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
    // Links by the source's keys: WEB-4 blocks WEB-2 (both rows say so: one link), relates to WEB-8 (both
    // rows write it outward, as Jira does for a symmetric type: still one link, made when WEB-8 came).
    const coupon = (await p.get(t.issue(body.keyMap['WEB-4']))).body;
    expect(
      coupon.links.map((l: { type: string; direction: string; issue: { key: string } }) => [
        l.type,
        l.direction,
        l.issue.key,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['blocks', 'outward', body.keyMap['WEB-2']],
        ['relates', 'inward', body.keyMap['WEB-8']],
      ]),
    );
    expect(coupon.links).toHaveLength(2);
    expect(story.links).toHaveLength(1);
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

  // 200 records a call, `nextRow` and `keyMap` on: the upload test below (a file of 210 records).
  it('starts at startRow; a record longer than an issue holds is its own error; refuses non-admins, bad files and 5 MB', async () => {
    await p.post(t.spaces, { key: 'BIG', name: 'Big', template: 'basic' });
    const rows = Array.from({ length: 5 }, (_, i) => `"Row ${i}",BIG-${i + 1},Task,"line one\r\nline two"`);
    rows.push(`"Row 5",BIG-6,Task,"${'long '.repeat(13_108)}"`);
    const csv = `\ufeffSummary,Issue key,Issue Type,Description\r\n${rows.join('\r\n')}\r\n`;
    const part = await importCall({ space: 'BIG', content: csv, startRow: 3, keyMap: { 'BIG-1': 'BIG-9' } });
    expect(part.body).toMatchObject({ total: 6, processed: 3, done: true, nextRow: null });
    expect(Object.keys(part.body.keyMap)).toEqual(['BIG-1', 'BIG-4', 'BIG-5']);
    expect(part.body.results[2]).toEqual({
      row: 5,
      from: 'BIG-6',
      error: 'A description can be up to 65536 characters; this one has 65540.',
    });
    expect((await p.get(t.issue(part.body.keyMap['BIG-5']))).body.description).toBe('line one\nline two');
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

describe('import by upload', () => {
  /** A Jira CSV of `count` issues with long descriptions (quotes and line ends, as real ones have). */
  const bigCsv = (space: string, count: number, descriptionBytes: number) => {
    const line = 'He said "ship it on Friday", then: "=1+1" is not a formula here.\n';
    const description = line.repeat(Math.ceil(descriptionBytes / line.length));
    const cell = (s: string) => `"${s.replaceAll('"', '""')}"`;
    const rows = Array.from(
      { length: count },
      (_, i) => `${cell(`Issue ${i}`)},${space}-${i + 1},Task,${cell(`${i}: ${description}`)}`,
    );
    return `\ufeffSummary,Issue key,Issue Type,Description\r\n${rows.join('\r\n')}\r\n`;
  };
  const runImport = async (file: string) => {
    let startRow = 0;
    let keyMap: Record<string, string> = {};
    const calls = [];
    for (;;) {
      const res = await importCall({ space: 'UPL', file, startRow, keyMap });
      expect(res.status).toBe(200);
      calls.push(res.body);
      keyMap = res.body.keyMap;
      if (res.body.done) break;
      startRow = res.body.nextRow;
    }
    return { calls, keyMap };
  };

  it('takes a 5 MB Jira CSV by upload link, 200 records a call, twice without creating twice; the inline body is refused by the gateway; an object over 5 MB is 413', async () => {
    await p.post(t.spaces, { key: 'UPL', name: 'Uploaded', template: 'basic' });
    const csv = bigCsv('UPL', 210, 22_800);
    const bytes = Buffer.from(csv, 'utf8');
    // Under the import limit, but escaped in a JSON body it passes what a Lambda event may carry.
    expect(bytes.length).toBeGreaterThan(4.8 * 1024 * 1024);
    expect(bytes.length).toBeLessThanOrEqual(5 * 1024 * 1024);
    const inline = await importCall({ space: 'UPL', content: csv });
    expect([inline.status, inline.body]).toEqual([413, { message: 'Request Too Long' }]);

    const start = await p.post(`${t.base}/import/upload`, { space: 'UPL', format: 'csv', size: bytes.length });
    expect(start.status).toBe(200);
    expect(start.body.upload).toMatchObject({ method: 'PUT', headers: { 'content-type': 'text/csv' } });
    // Nothing uploaded yet: a clear 400.
    const early = await importCall({ space: 'UPL', file: start.body.file });
    expect([early.status, early.body.error]).toEqual([
      400,
      'The file to import is not there: upload it first, or this import is finished.',
    ]);
    const put = await fetch(start.body.upload.url, { method: 'PUT', headers: start.body.upload.headers, body: bytes });
    expect(put.status).toBe(200);

    const first = await runImport(start.body.file);
    expect(first.calls.map((c) => [c.total, c.processed, c.nextRow, c.done])).toEqual([
      [210, 200, 200, false],
      [210, 10, null, true],
    ]);
    expect(Object.keys(first.keyMap)).toHaveLength(210);
    const seq = (await p.get(t.space('UPL'))).body.space.seq;
    expect(seq).toBe(210);
    const last = await p.get(t.issue(first.keyMap['UPL-210'] as string));
    expect(last.body.issue.summary).toBe('Issue 209');
    expect(last.body.description).toBe(csv.split('\r\n')[210]?.split(',Task,')[1]?.slice(1, -1).replaceAll('""', '"'));
    // The same upload imported again: the same keys, nothing created twice.
    const again = await runImport(start.body.file);
    expect(again.keyMap).toEqual(first.keyMap);
    expect((await p.get(t.space('UPL'))).body.space.seq).toBe(seq);

    // The export of those issues passes 4 MB: a 303 to a link to the file.
    const exported = await fetch(`${p.baseUrl}${t.base}/export?jql=${encodeURIComponent('space = UPL')}`, {
      headers: { authorization: `Bearer ${p.owner.token}` },
      redirect: 'manual',
    });
    expect(exported.status).toBe(303);
    const file = await (await fetch(exported.headers.get('location') as string)).text();
    expect(Buffer.byteLength(file)).toBeGreaterThan(4 * 1024 * 1024);
    expect(file).toContain(`UPL-210,`);

    // Refusals: a size over 5 MB, an object over 5 MB (sent past its link), a token of another space, not admin.
    const tooBig = await p.post(`${t.base}/import/upload`, { space: 'UPL', format: 'csv', size: 5 * 1024 * 1024 + 1 });
    expect([tooBig.status, tooBig.body.error]).toEqual([413, 'Import files can be up to 5 MB.']);
    const small = await p.post(`${t.base}/import/upload`, { space: 'UPL', format: 'csv', size: 100 });
    const { key } = JSON.parse(Buffer.from(small.body.file.split('.')[0], 'base64url').toString('utf8'));
    const bucket = { name: process.env.ARTIFACTS_BUCKET as string };
    const over = Buffer.alloc(5 * 1024 * 1024 + 1, 'x');
    const unbound = await storage().presignPut(bucket, key, { contentType: 'text/csv', expiresIn: 60 });
    expect((await fetch(unbound, { method: 'PUT', headers: { 'content-type': 'text/csv' }, body: over })).status).toBe(
      200,
    );
    const overObject = await importCall({ space: 'UPL', file: small.body.file });
    expect([overObject.status, overObject.body.error]).toEqual([413, 'Import files can be up to 5 MB.']);
    await p.post(t.spaces, { key: 'OTH', name: 'Other', template: 'basic' });
    const elsewhere = await importCall({ space: 'OTH', file: start.body.file });
    expect([elsewhere.status, elsewhere.body.error]).toEqual([400, 'Invalid import token. Start the import again.']);
    const both = await importCall({ space: 'UPL', file: start.body.file, content: 'Summary\r\nx\r\n' });
    expect([both.status, both.body.error]).toEqual([
      400,
      'Send one of `content` (the file) and `file` (an uploaded file’s token).',
    ]);
    const notAdmin = await p.post(
      `${t.base}/import/upload`,
      { space: 'UPL', format: 'csv', size: 100 },
      { token: developer.token },
    );
    expect([notAdmin.status, notAdmin.body.error]).toEqual([
      403,
      'Only administrators of this space can import issues.',
    ]);
    expect((await p.post(`${t.base}/import/upload`, { space: 'NOPE', format: 'csv', size: 100 })).status).toBe(404);
  });
});
