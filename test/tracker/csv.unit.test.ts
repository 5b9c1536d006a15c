import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import {
  catalogNames,
  countCsvRecords,
  type ExportIssue,
  type ImportRecord,
  neutralise,
  parseCsvRecords,
  readDate,
  readJiraCsv,
  readJsonExport,
  writeDate,
  writeJiraCsv,
  writeJsonExport,
} from '../../shared/domains/tracker/csv';
import { DomainError } from '../../shared/kernel/ground/errors';
import { issue } from '../fixtures/tracker/jql-world';

const fixture = readFileSync(join(__dirname, '..', 'fixtures', 'tracker', 'jira-cloud-export.csv'), 'utf8');
const utc = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi);

describe('reading a Jira Cloud "Export CSV (all fields)"', () => {
  const page = readJiraCsv(fixture);
  const byKey = (key: string) => page.records.find((r) => r.from === key)!;

  test('records, not lines: a BOM, CRLF and quoted line breaks leave 10 records', () => {
    expect(fixture.charCodeAt(0)).toBe(0xfeff);
    expect(fixture).toContain('\r\n');
    expect(fixture.split('\r\n').length - 2).toBeGreaterThan(10);
    expect(page.total).toBe(10);
    expect(page.records.map((r) => r.from)).toEqual(Array.from({ length: 10 }, (_, i) => `WEB-${i + 1}`));
    expect(page.records.map((r) => r.row)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(page.ignoredColumns).toEqual([]);
    expect(page.records.every((r) => r.error === undefined)).toBe(true);
  });

  test('repeated columns are grouped into lists, empty cells dropped', () => {
    const r = byKey('WEB-2');
    expect(r.input).toMatchObject({
      labels: ['checkout', 'ux'],
      components: ['Frontend', 'Payments'],
      fixVersions: ['2.4', '2.5'],
      sprint: 'WEB Sprint 2',
    });
    expect(r.sprints).toEqual(['WEB Sprint 1', 'WEB Sprint 2']);
    expect(r.watchers).toEqual(['Ana Lima', 'Cy Rousseau']);
    expect(byKey('WEB-7').input?.labels).toEqual(['payments', 'cleanup', 'provider']);
    expect(byKey('WEB-5').input?.labels).toBeUndefined();
    expect(byKey('WEB-8').comments).toHaveLength(3);
  });

  test('multi-line cells keep their lines (as \\n), doubled quotes read as one', () => {
    const r = byKey('WEB-4');
    expect(r.input?.summary).toBe('Total shows "NaN" when a coupon is removed');
    expect(r.input?.description).toBe(
      'Steps:\n1. Add a coupon\n2. Remove it\n3. The total reads NaN\n\n{code}\ntotal = subtotal - discount; // discount is undefined here\n{code}',
    );
    expect(r.input?.environment).toBe('Chrome 121 on macOS 14\nSafari 17.2');
    expect(byKey('WEB-8').input?.description).toContain('||Locale||Seen||\n|ar|yes|');
  });

  test('dates dd/MMM/yy h:mm a (AM, PM, 12 o’clock), in the file’s zone', () => {
    expect(byKey('WEB-1').createdAt).toBe(utc(2024, 1, 8, 9, 2));
    expect(byKey('WEB-4')).toMatchObject({
      createdAt: utc(2024, 2, 22, 17, 48),
      updatedAt: utc(2024, 3, 1, 15, 12),
      resolvedAt: utc(2024, 3, 1, 15, 12),
    });
    expect(byKey('WEB-1').input?.dueDate).toBe('2024-03-29');
    expect(byKey('WEB-6').input).toMatchObject({ dueDate: '2024-04-05', startDate: '2024-04-01' });
    const paris = readJiraCsv(fixture, { timeZone: 'Europe/Paris' }).records[0]!;
    expect(paris.createdAt).toBe(utc(2024, 1, 8, 8, 2));
    expect(readDate('12/Jan/24 12:05 AM', 'UTC')).toBe(utc(2024, 1, 12, 0, 5));
    expect(readDate('12/Jan/24 12:05 PM', 'UTC')).toBe(utc(2024, 1, 12, 12, 5));
    expect(writeDate(utc(2024, 1, 12, 0, 5), 'UTC')).toBe('12/Jan/24 12:05 AM');
    expect(readDate('31/Feb/24 1:00 PM', 'UTC')).toBeUndefined();
  });

  test('estimates in seconds, story points, custom fields by name', () => {
    expect(byKey('WEB-2').input).toMatchObject({ originalEstimate: 57600, remainingEstimate: 28800, storyPoints: 5 });
    expect(byKey('WEB-2').timeSpent).toBe(28800);
    expect(byKey('WEB-4').input).toMatchObject({ originalEstimate: 7200, remainingEstimate: 0 });
    expect(byKey('WEB-2').input?.fields).toEqual({ Team: 'Web Core' });
    expect(byKey('WEB-10').input?.fields).toBeUndefined();
  });

  test('parents by Issue id / Parent id, links, comments date;author;body, attachments warned', () => {
    expect(byKey('WEB-2')).toMatchObject({ sourceId: '10002', parentSourceId: '10001' });
    expect(byKey('WEB-3').parentSourceId).toBe('10002');
    expect(byKey('WEB-1').parentSourceId).toBeUndefined();
    expect(byKey('WEB-4').links).toEqual([
      { type: 'Blocks', direction: 'outward', key: 'WEB-2' },
      { type: 'Relates', direction: 'outward', key: 'WEB-8' },
    ]);
    expect(byKey('WEB-2').comments).toEqual([
      {
        createdAt: utc(2024, 1, 11, 14, 3),
        author: '712020:0b6c2a51-4d1e-4f0a-9a11-000000000a01',
        body: 'Design is in the shared folder; review by Friday please.',
      },
      {
        createdAt: utc(2024, 3, 13, 9, 47),
        author: '712020:0b6c2a51-4d1e-4f0a-9a11-000000000b02',
        body: 'Blocked by the coupon bug (WEB-4).\nWill pick it up after the fix.',
      },
    ]);
    expect(byKey('WEB-8').comments[0]?.body).toBe('Looking into it 👀');
    expect(byKey('WEB-4').warnings).toEqual(['1 attachment(s) not imported: their files stay in the source tracker.']);
  });

  test('a formula-looking cell of the source is read as it is (neutralising is for what we write)', () => {
    expect(byKey('WEB-5').input?.summary).toBe('=HYPERLINK("https://example.invalid","Open report")');
  });

  test('catalog values stay names, listed once for the caller to resolve or create', () => {
    const names = catalogNames(page.records);
    expect(names.types.sort()).toEqual(['Bug', 'Epic', 'Story', 'Sub-task', 'Task']);
    expect(names.statuses.sort()).toEqual(['Done', 'In Progress', 'In Review', 'To Do']);
    expect(names.components.sort()).toEqual(['Frontend', 'Payments', 'Shipping']);
    expect(names.versions.sort()).toEqual(['2.3', '2.4', '2.5']);
    expect(names.sprints.sort()).toEqual(['WEB Sprint 1', 'WEB Sprint 2', 'WEB Sprint 3']);
    expect(names.resolutions.sort()).toEqual(['Done', "Won't Do"]);
    expect(names.securityLevels).toEqual(['Internal']);
    expect(names.people).toContain('Dée Müller');
  });

  test('pages of records: startRow and limit, the total of the whole file', () => {
    const p = readJiraCsv(fixture, { startRow: 8, limit: 5 });
    expect(p.total).toBe(10);
    expect(p.records.map((r) => [r.row, r.from])).toEqual([
      [8, 'WEB-9'],
      [9, 'WEB-10'],
    ]);
    // A page parses only up to its last record; the total still counts the whole file.
    const middle = readJiraCsv(fixture, { startRow: 3, limit: 2 });
    expect(middle.records.map((r) => r.from)).toEqual(['WEB-4', 'WEB-5']);
    expect(middle.total).toBe(10);
    expect(readJiraCsv(fixture, { startRow: 10 }).records).toEqual([]);
  });
});

describe('rows and files that cannot be imported', () => {
  test('a row without Summary is an error for that row only', () => {
    const csv = 'Summary,Issue key,Labels,Labels\r\nFirst,OLD-1,a,b\r\n,OLD-2,c,\r\n"  ",OLD-3,,\r\nFourth,OLD-4,,\r\n';
    const { records } = readJiraCsv(csv);
    expect(records.map((r) => r.error)).toEqual([undefined, 'Summary is required.', 'Summary is required.', undefined]);
    expect(records[1]).toMatchObject({ row: 1, from: 'OLD-2' });
    expect(records[1]?.input).toBeUndefined();
    expect(records[3]?.input).toEqual({ summary: 'Fourth' });
  });

  test('bad values are warnings, the row is still imported', () => {
    const csv =
      'Summary,Created,Original Estimate,Custom field (Story Points),Due Date\n' +
      'x,yesterday,-5,lots,31/Feb/24 12:00 AM\n' +
      'y,,1w 2d,3.5,\n';
    const [a, b] = readJiraCsv(csv).records;
    expect(a?.input).toEqual({ summary: 'x' });
    expect(a?.warnings).toEqual([
      'Created "yesterday" is not a date (dd/MMM/yy h:mm a); left out.',
      'Due Date "31/Feb/24 12:00 AM" is not a date; left out.',
      'Story points "lots" is not a number from 0 to 10000; left out.',
      'Original Estimate -5 is not a whole number of seconds from 0 to 315360000; left out.',
    ]);
    expect(b?.input).toEqual({ summary: 'y', storyPoints: 3.5, originalEstimate: '1w 2d' });
  });

  test('newer Jira Cloud column names are read too', () => {
    const csv =
      'Summary,Fix versions,Fix versions,Components,Affects versions,Due date,Custom field (Story point estimate),Parent\n' +
      'x,1.0,1.1,API,0.9,02/Jan/25 12:00 AM,2,10042\n' +
      'y,,,,,,,WEB-7\n';
    const [a, b] = readJiraCsv(csv).records;
    expect(a?.input).toEqual({
      summary: 'x',
      fixVersions: ['1.0', '1.1'],
      components: ['API'],
      affectsVersions: ['0.9'],
      dueDate: '2025-01-02',
      storyPoints: 2,
    });
    expect(a?.parentSourceId).toBe('10042');
    expect(b?.input?.parent).toBe('WEB-7');
  });

  test('a file that is not CSV, or has no Summary column, is a 400', () => {
    const unclosed = () => readJiraCsv('Summary,Labels\r\n"open,a\r\n');
    expect(unclosed).toThrow(DomainError);
    expect(unclosed).toThrow(/^The CSV file could not be read/);
    expect(() => readJiraCsv('Title,Labels\r\nx,a\r\n')).toThrow(
      'The CSV file has no Summary column: export it from the issue tracker with all fields.',
    );
    expect(() => readJsonExport('{"issues": 3}')).toThrow(
      'The JSON file has no issues list: use this API’s JSON export.',
    );
    expect(() => readJsonExport('nope')).toThrow('The JSON file could not be read: it is not valid JSON.');
  });
});

describe('writing Jira’s layout', () => {
  const hostile = issue({
    key: 'WEB-1',
    issueId: 'iss_a',
    summary: '=HYPERLINK("https://example.invalid","x")',
    labels: ['+1', '-2', '@me', 'ok'],
    environment: '\tTAB',
    fields: { customfield_1: '\rCR', customfield_2: 'plain = text' },
    description: '@SUM(A1:A9)\nsecond line',
  });

  test('cells starting with = + - @, a tab or a CR get a leading quote (OWASP); others are untouched', () => {
    expect(['=1', '+1', '-1', '@x', '\tx', '\rx', 'x=1', ''].map(neutralise)).toEqual([
      "'=1",
      "'+1",
      "'-1",
      "'@x",
      "'\tx",
      "'\rx",
      'x=1',
      '',
    ]);
    const csv = writeJiraCsv([hostile]);
    expect(csv).toContain(`"'=HYPERLINK(""https://example.invalid"",""x"")"`);
    expect(csv).toContain(",'+1,'-2,'@me,ok,");
    expect(csv).toContain("'\tTAB");
    expect(csv).toContain('"\'\rCR"');
    expect(csv).toContain('plain = text');
    expect(csv).toContain('"\'@SUM(A1:A9)\nsecond line"');
    // No cell of the output starts with a formula character.
    const cells = parseCsvRecords(csv).rows.flatMap((row) => Object.values(row).flat());
    expect(cells.length).toBeGreaterThan(20);
    expect(cells.filter((c) => c && '=+-@\t\r'.includes(c[0]!))).toEqual([]);
    const { records } = readJiraCsv(csv);
    expect(records[0]?.input).toMatchObject({ summary: hostile.summary, labels: ['+1', '-2', '@me', 'ok'] });
    expect(records[0]?.input?.environment).toBe('\tTAB');
  });

  test('a BOM, CRLF, one header with repeated columns as wide as the fullest issue', () => {
    const a = issue({ key: 'WEB-1', labels: ['a', 'b', 'c'], componentIds: ['cmp_1'] });
    const b = issue({ key: 'WEB-2', labels: [], componentIds: ['cmp_1', 'cmp_2'] });
    const csv = writeJiraCsv([a, b], { component: (id) => ({ cmp_1: 'UI', cmp_2: 'API' })[id] });
    expect(csv.startsWith('\ufeffSummary,Issue key,Issue id,')).toBe(true);
    const header = csv.slice(1, csv.indexOf('\r\n')).split(',');
    expect(header.filter((h) => h === 'Labels')).toHaveLength(3);
    expect(header.filter((h) => h === 'Component/s')).toHaveLength(2);
    expect(header.filter((h) => h === 'Comment')).toHaveLength(1);
    expect(csv.endsWith('\r\n')).toBe(true);
    const read = readJiraCsv(csv).records;
    expect(read.map((r) => r.input?.components)).toEqual([['UI'], ['UI', 'API']]);
  });
});

/** An issue as an export would hold it, built from an import record, its names standing for ids. */
function asIssue(r: ImportRecord): ExportIssue {
  const i = r.input!;
  const sprints = r.sprints;
  return {
    ...issue({
      issueId: r.sourceId!,
      key: r.from!,
      number: Number(r.from!.split('-')[1]),
      summary: i.summary,
      typeId: i.type!,
      statusId: r.status!,
      statusCategory: r.status === 'Done' ? 'done' : r.status === 'To Do' ? 'todo' : 'inprogress',
      priorityId: i.priority ?? undefined,
      resolutionId: i.resolution ?? undefined,
      securityLevelId: i.securityLevel ?? undefined,
      assigneeId: i.assignee ?? undefined,
      reporterId: i.reporter ?? undefined,
      creatorId: r.creator,
      labels: i.labels ?? [],
      componentIds: i.components ?? [],
      fixVersionIds: i.fixVersions ?? [],
      affectsVersionIds: i.affectsVersions ?? [],
      dueDate: i.dueDate ?? undefined,
      startDate: i.startDate ?? undefined,
      storyPoints: i.storyPoints ?? undefined,
      originalEstimate: (i.originalEstimate as number | undefined) ?? undefined,
      remainingEstimate: (i.remainingEstimate as number | undefined) ?? undefined,
      timeSpent: r.timeSpent,
      environment: i.environment ?? undefined,
      parentId: r.parentSourceId,
      sprintId: sprints[sprints.length - 1],
      closedSprintIds: sprints.slice(0, -1),
      watchers: r.watchers,
      fields: i.fields ?? {},
      createdAt: r.createdAt!,
      updatedAt: r.updatedAt!,
      resolvedAt: r.resolvedAt,
      requestTypeId: i.requestType,
      participants: i.participants ?? [],
    }),
    description: i.description ?? '',
    comments: r.comments.map((c) => ({ authorId: c.author, createdAt: c.createdAt!, body: c.body })),
  };
}

/** What a round trip keeps: everything but links and warnings (links live apart from the issue). */
const kept = (records: ImportRecord[]) => records.map(({ links: _l, warnings: _w, ...rest }) => rest);

describe('round trips', () => {
  const original = readJiraCsv(fixture).records;
  const issues = original.map(asIssue);

  test('Jira CSV: read → write → read gives the same records', () => {
    const again = readJiraCsv(writeJiraCsv(issues)).records;
    expect(kept(again)).toEqual(kept(original));
  });

  test('written with names: ids come back as the names the exporter gave them', () => {
    const one = issue({ key: 'WEB-3', typeId: 'typ_bug', assigneeId: 'usr_ana', parentId: 'iss_1', sprintId: 'spr_2' });
    const csv = writeJiraCsv([one], {
      type: () => 'Bug',
      person: (id) => (id === 'usr_ana' ? 'ana@example.com' : undefined),
      issueKey: () => 'WEB-1',
      sprint: () => 'WEB Sprint 2',
    });
    const [r] = readJiraCsv(csv).records;
    expect(r?.input).toMatchObject({
      type: 'Bug',
      assignee: 'ana@example.com',
      parent: 'WEB-1',
      sprint: 'WEB Sprint 2',
    });
    expect(r?.parentSourceId).toBe('iss_1');
  });

  test('dates survive a round trip in another zone', () => {
    const again = readJiraCsv(writeJiraCsv(issues, {}, { timeZone: 'America/New_York' }), {
      timeZone: 'America/New_York',
    }).records;
    expect(again.map((r) => r.createdAt)).toEqual(original.map((r) => r.createdAt));
  });

  test('JSON export: write → read gives the records of the same issues, ids kept', () => {
    const json = writeJsonExport(
      issues,
      { issueKey: (id) => issues.find((i) => i.issueId === id)?.key },
      1_700_000_000_000,
    );
    const parsed = JSON.parse(json);
    expect(parsed).toMatchObject({ format: 'tracker-issues/1', exportedAt: 1_700_000_000_000, total: 10 });
    const back = readJsonExport(json).records;
    const fromJson = kept(back).map(({ row: _r, ...r }) => r);
    const fromCsv = kept(original).map(({ row: _r, ...r }) => ({
      ...r,
      // The JSON export names the parent by key as well as by id.
      input: r.parentSourceId
        ? { ...r.input, parent: original.find((o) => o.sourceId === r.parentSourceId)?.from }
        : r.input,
    }));
    expect(fromJson).toEqual(fromCsv);
    expect(readJsonExport(json, { startRow: 9 }).records.map((r) => [r.row, r.from])).toEqual([[9, 'WEB-10']]);
  });
});

test('counting records without parsing agrees with csv-parse (quoted line breaks, CR, LF, CRLF, blank lines)', () => {
  const cell = fc.oneof(
    fc.constantFrom('', 'a', 'x,y', 'say "hi"', 'two\nlines', 'cr\rhere', 'crlf\r\nhere', ' ', '""'),
    fc.string({ maxLength: 6 }),
  );
  fc.assert(
    fc.property(
      fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { maxLength: 8 }),
      fc.constantFrom('unix', 'windows', 'mac'),
      fc.boolean(),
      fc.nat({ max: 3 }),
      (rows, delimiter, bom, blankLines) => {
        const body = stringify([['A', 'B', 'C'], ...rows], {
          bom,
          record_delimiter: delimiter as 'unix' | 'windows' | 'mac',
          quoted_match: /[\r\n]/,
        });
        const eol = { unix: '\n', windows: '\r\n', mac: '\r' }[delimiter]!;
        const content = body + eol.repeat(blankLines);
        const parsed = parse(content, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
        expect(countCsvRecords(content)).toBe(parsed.length);
      },
    ),
    { numRuns: 300, seed: 31 },
  );
  expect(countCsvRecords(fixture)).toBe(11);
  expect(countCsvRecords('')).toBe(0);
  expect(countCsvRecords('a,b')).toBe(1);
});
