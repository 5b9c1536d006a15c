import { compileJql, JqlError, type JqlIssue, parseJql } from '../../shared/domains/tracker/jql';
import { statusOf } from '../../shared/kernel/http/http-error';
import { ctx, DAY, issue, NOW } from '../fixtures/tracker/jql-world';

/** The tree without source positions (they are checked apart). */
const tree = (query: string) => JSON.parse(JSON.stringify(parseJql(query), (k, v) => (k === 'loc' ? undefined : v)));
const f = (name: string, customId?: string) => ({ type: 'field', name, ...(customId ? { customId } : {}) });
const v = (value: string, quoted = false) => ({ type: 'value', value, quoted });
const fn = (name: string, ...args: string[]) => ({ type: 'function', name, args });
const list = (...values: unknown[]) => ({ type: 'list', values });
const cmp = (field: string, op: string, value: unknown) => ({ type: 'compare', field: f(field), op, value });
const empty = { type: 'empty' };

describe('parseJql: the tree of each query (Jira’s documented examples among them)', () => {
  test.each<[string, unknown]>([
    ['', { where: null, orderBy: [] }],
    ['   ', { where: null, orderBy: [] }],
    [
      'project = "Teams in Space" AND issuetype = Bug',
      {
        where: {
          type: 'and',
          clauses: [cmp('project', '=', v('Teams in Space', true)), cmp('issuetype', '=', v('Bug'))],
        },
        orderBy: [],
      },
    ],
    [
      'reporter = currentUser() AND created >= -7d ORDER BY created DESC',
      {
        where: { type: 'and', clauses: [cmp('reporter', '=', fn('currentUser')), cmp('created', '>=', v('-7d'))] },
        orderBy: [{ field: f('created'), direction: 'desc' }],
      },
    ],
    [
      'fixVersion in ("3.14", "4.2")',
      { where: cmp('fixVersion', 'in', list(v('3.14', true), v('4.2', true))), orderBy: [] },
    ],
    [
      'labels NOT IN (urgent, blocker) OR labels is EMPTY',
      {
        where: {
          type: 'or',
          clauses: [cmp('labels', 'not in', list(v('urgent'), v('blocker'))), cmp('labels', 'is', empty)],
        },
        orderBy: [],
      },
    ],
    ['assignee IS NOT null', { where: cmp('assignee', 'is not', empty), orderBy: [] }],
    ['fixVersion = EMPTY', { where: cmp('fixVersion', '=', empty), orderBy: [] }],
    ['summary ~ "\\"full screen\\""', { where: cmp('summary', '~', v('"full screen"', true)), orderBy: [] }],
    ["summary ~ 'it\\'s' ", { where: cmp('summary', '~', v("it's", true)), orderBy: [] }],
    ['summary !~ win*', { where: cmp('summary', '!~', v('win*')), orderBy: [] }],
    [
      'cf[10010] = 5',
      { where: { type: 'compare', field: f('cf[10010]', '10010'), op: '=', value: v('5') }, orderBy: [] },
    ],
    ['"Story Points" > 3', { where: cmp('Story Points', '>', v('3')), orderBy: [] }],
    ['sprint in openSprints()', { where: cmp('sprint', 'in', fn('openSprints')), orderBy: [] }],
    [
      'assignee in membersOf("jira-administrators")',
      { where: cmp('assignee', 'in', fn('membersOf', 'jira-administrators')), orderBy: [] },
    ],
    ['created > startOfDay(-1d)', { where: cmp('created', '>', fn('startOfDay', '-1d')), orderBy: [] }],
    [
      'due < now() and resolution = Unresolved',
      {
        where: { type: 'and', clauses: [cmp('due', '<', fn('now')), cmp('resolution', '=', v('Unresolved'))] },
        orderBy: [],
      },
    ],
    ['NOT assignee = jsmith', { where: { type: 'not', clause: cmp('assignee', '=', v('jsmith')) }, orderBy: [] }],
    [
      '(status = Open OR status = "In Progress") AND priority = Highest',
      {
        where: {
          type: 'and',
          clauses: [
            { type: 'or', clauses: [cmp('status', '=', v('Open')), cmp('status', '=', v('In Progress', true))] },
            cmp('priority', '=', v('Highest')),
          ],
        },
        orderBy: [],
      },
    ],
    [
      'a = b OR c = d AND e = f',
      {
        where: {
          type: 'or',
          clauses: [cmp('a', '=', v('b')), { type: 'and', clauses: [cmp('c', '=', v('d')), cmp('e', '=', v('f'))] }],
        },
        orderBy: [],
      },
    ],
    [
      'a=b&&c!=d||!e~f',
      {
        where: {
          type: 'or',
          clauses: [
            { type: 'and', clauses: [cmp('a', '=', v('b')), cmp('c', '!=', v('d'))] },
            { type: 'not', clause: cmp('e', '~', v('f')) },
          ],
        },
        orderBy: [],
      },
    ],
    ['issuekey = ABC-123', { where: cmp('issuekey', '=', v('ABC-123')), orderBy: [] }],
    [
      'status WAS "In Progress" BEFORE "2011/02/02"',
      {
        where: {
          type: 'was',
          field: f('status'),
          op: 'was',
          value: v('In Progress', true),
          predicates: [{ kind: 'before', value: v('2011/02/02', true) }],
        },
        orderBy: [],
      },
    ],
    [
      'status was not in (Resolved, Closed) during ("2011/01/01", "2011/05/01")',
      {
        where: {
          type: 'was',
          field: f('status'),
          op: 'was not in',
          value: list(v('Resolved'), v('Closed')),
          predicates: [{ kind: 'during', value: list(v('2011/01/01', true), v('2011/05/01', true)) }],
        },
        orderBy: [],
      },
    ],
    [
      'status CHANGED FROM "In Progress" TO Open AFTER startOfDay("-1d") BY jsmith',
      {
        where: {
          type: 'changed',
          field: f('status'),
          predicates: [
            { kind: 'from', value: v('In Progress', true) },
            { kind: 'to', value: v('Open') },
            { kind: 'after', value: fn('startOfDay', '-1d') },
            { kind: 'by', value: v('jsmith') },
          ],
        },
        orderBy: [],
      },
    ],
    ['ORDER BY rank', { where: null, orderBy: [{ field: f('rank'), direction: null }] }],
    [
      'priority in (High, Highest) order by priority DESC, created asc, key',
      {
        where: cmp('priority', 'in', list(v('High'), v('Highest'))),
        orderBy: [
          { field: f('priority'), direction: 'desc' },
          { field: f('created'), direction: 'asc' },
          { field: f('key'), direction: null },
        ],
      },
    ],
    [
      'ISSUETYPE in (Bug)\n  and\n  labels = "order"',
      {
        where: { type: 'and', clauses: [cmp('ISSUETYPE', 'in', list(v('Bug'))), cmp('labels', '=', v('order', true))] },
        orderBy: [],
      },
    ],
    ['labels = orderly', { where: cmp('labels', '=', v('orderly')), orderBy: [] }],
    ['summary ~ "tab\\there \\u00e9"', { where: cmp('summary', '~', v('tab\there é', true)), orderBy: [] }],
  ])('%s', (query, expected) => {
    expect(tree(query)).toEqual(expected);
  });

  test('positions are kept on fields and values', () => {
    const q = parseJql('status = Done AND\n  assignee = "bo"');
    const [a, b] = (q.where as any).clauses;
    expect(a.field.loc).toEqual({ line: 1, column: 1, offset: 0 });
    expect(a.value.loc).toEqual({ line: 1, column: 10, offset: 9 });
    expect(b.field.loc).toEqual({ line: 2, column: 3, offset: 20 });
  });
});

/** The error a query raises (parse and compile), as the route answers it. */
async function failure(query: string) {
  try {
    await compileJql(query, ctx());
  } catch (e) {
    if (e instanceof JqlError) return { status: statusOf(e), ...(e.toJSON() as object) };
    throw e;
  }
  throw new Error(`no error for ${query}`);
}

describe('bad queries: 400 with the line, the column and what was expected', () => {
  test.each<[string, string, number, number]>([
    ['assignee = ', 'Expected a value but the end of the query found at line 1, column 12.', 1, 12],
    ['a = b AND )', 'Expected a field name but ")" found at line 1, column 11.', 1, 11],
    [
      'status = Done (',
      'Expected AND, OR, ORDER BY or the end of the query but "(" found at line 1, column 15.',
      1,
      15,
    ],
    [
      'project = WEB status = Done',
      'Expected AND, OR, ORDER BY or the end of the query but "status" found at line 1, column 15.',
      1,
      15,
    ],
    ['assignee', 'Expected an operator but the end of the query found at line 1, column 9.', 1, 9],
    ['assignee ^ bo', 'Expected an operator but "^" found at line 1, column 10.', 1, 10],
    ['status IN Done', 'Expected a list of values or a function but "Done" found at line 1, column 11.', 1, 11],
    [
      'project = WEB\nAND (status = Done',
      'Expected AND, OR or ")" but the end of the query found at line 2, column 19.',
      2,
      19,
    ],
    ['summary ~ "open', 'Expected a closing " for the string that starts at line 1, column 11.', 1, 11],
    ['ORDER BY', 'Expected a field name but the end of the query found at line 1, column 9.', 1, 9],
    [
      'order by created sideways',
      'Expected ASC, DESC, "," or the end of the query but "sideways" found at line 1, column 18.',
      1,
      18,
    ],
    ['status = and', 'Expected a value but "and" found at line 1, column 10.', 1, 10],
    ['status WAS (Done)', 'Expected IN before a list after WAS at line 1, column 8.', 1, 8],
  ])('%s', async (query, message, line, column) => {
    const e = await failure(query);
    expect(e).toMatchObject({ status: 400, error: message, line, column });
  });

  test('a syntax error lists what was expected', async () => {
    expect(await failure('assignee = bo ORDER created')).toMatchObject({ expected: ['BY'], line: 1, column: 21 });
  });

  test.each<[string, string, number, number]>([
    ['foo = bar', 'Field "foo" does not exist or you do not have permission to view it.', 1, 1],
    [
      'status = Done AND "Epic Colour" = red',
      'Field "Epic Colour" does not exist or you do not have permission to view it.',
      1,
      19,
    ],
    ['cf[99999] = 1', 'Field "cf[99999]" does not exist or you do not have permission to view it.', 1, 1],
    ['order by foo', 'Field "foo" does not exist or you do not have permission to view it.', 1, 10],
  ])('unknown field: %s', async (query, message, line, column) => {
    const e = await failure(query);
    expect(e).toMatchObject({ status: 400, error: message, line, column });
    expect((e as any).field).toBeDefined();
  });

  test.each<[string, string, number, number]>([
    ['status = Nope', 'The value "Nope" does not exist for the field "status".', 1, 10],
    [
      'assignee in (ana@example.com, "nobody@example.com")',
      'The value "nobody@example.com" does not exist for the field "assignee".',
      1,
      31,
    ],
    ['summary = hello', 'The operator "=" is not supported by the field "summary".', 1, 1],
    ['status > Done', 'The operator ">" is not supported by the field "status".', 1, 1],
    ['priority > Urgent', 'The value "Urgent" does not exist for the field "priority".', 1, 12],
    ['priority >= EMPTY', 'The operator ">=" takes one value.', 1, 1],
    ['priority <= now()', 'The function "now()" is not supported by the field "priority".', 1, 13],
    ['priority ~ High', 'The operator "~" is not supported by the field "priority".', 1, 1],
    ['labels ~ x', 'The operator "~" is not supported by the field "labels".', 1, 1],
    [
      'created > yesterday',
      'Date value "yesterday" for the field "created" is invalid: use "yyyy-MM-dd", "yyyy/MM/dd", either with " HH:mm", or a period such as "-5d" or "4w 2d" (units w, d, h, m).',
      1,
      11,
    ],
    [
      'created > "2024-02-30"',
      'Date value "2024-02-30" for the field "created" is invalid: use "yyyy-MM-dd", "yyyy/MM/dd", either with " HH:mm", or a period such as "-5d" or "4w 2d" (units w, d, h, m).',
      1,
      11,
    ],
    ['storyPoints > many', 'The value "many" for the field "storyPoints" is not a number.', 1, 15],
    ['assignee = now()', 'The function "now()" is not supported by the field "assignee".', 1, 12],
    ['assignee = whoever()', 'Unknown function "whoever()".', 1, 12],
    [
      'created > startOfDay("yesterday")',
      'The increment "yesterday" of startOfDay() is invalid: use a number and a unit (y, M, w, d, h, m), such as "-1d".',
      1,
      11,
    ],
    ['assignee in membersOf("nobody")', 'The group "nobody" does not exist.', 1, 13],
    [
      'labels WAS x',
      'The WAS operator is supported by the fields status, assignee, reporter, priority, resolution and fixVersion only (their history is kept).',
      1,
      1,
    ],
    ['status WAS Done BY nobody', 'The value "nobody" does not exist for the field "status".', 1, 20],
    ['rank > a0', 'The field "rank" can only be used in ORDER BY.', 1, 1],
    ['statusCategory = Someday', 'The value "Someday" does not exist for the field "statusCategory".', 1, 1],
  ])('compile: %s', async (query, message, line, column) => {
    expect(await failure(query)).toMatchObject({ status: 400, error: message, line, column });
  });

  test('deep nesting is a 400, not a stack overflow', async () => {
    const deep = `${'('.repeat(101)}labels = a${')'.repeat(101)}`;
    const message = (column: number) =>
      `The query nests too deeply at line 1, column ${column}: at most 100 levels of parentheses and 100 NOTs in a row.`;
    expect(await failure(deep)).toMatchObject({ status: 400, error: message(101), line: 1, column: 101 });
    expect(await failure(`${'NOT '.repeat(101)}labels = a`)).toMatchObject({ error: message(401), column: 401 });
    expect(await failure(`${'!('.repeat(101)}labels = a${')'.repeat(101)}`)).toMatchObject({ column: 201 });
    expect(await failure(`a = b AND\n  ${'('.repeat(101)}`)).toMatchObject({ line: 2, column: 103 });
    const nots = await compileJql(`${'!'.repeat(100)}labels = a`, ctx());
    expect(nots.matches(issue({ labels: ['a'] }))).toBe(true);
    // NOTs that are not in a row, and parentheses that close, do not add up.
    const many = Array.from({ length: 300 }, () => '(NOT labels = b)').join(' AND ');
    expect((await compileJql(many, ctx())).matches(issue({ labels: ['a'] }))).toBe(true);
    // Parentheses inside quotes are text, not nesting.
    expect(await run(`summary ~ "${'('.repeat(150)}x" OR summary ~ '\\'${'('.repeat(150)}'`, [])).toEqual([]);
  });

  test('a query over 10,000 characters is refused', async () => {
    const long = `summary ~ "${'a'.repeat(10_000)}"`;
    expect(await failure(long)).toMatchObject({ status: 400, error: 'A query can be up to 10000 characters.' });
  });
});

/** Keys of the issues a query matches, in its order. */
async function run(query: string, issues: JqlIssue[], over = {}) {
  const compiled = await compileJql(query, ctx(over));
  return issues
    .filter((i) => compiled.matches(i))
    .sort(compiled.compare)
    .map((i) => i.key);
}

describe('matching', () => {
  const a = issue({
    key: 'WEB-1',
    issueId: 'iss_1',
    number: 1,
    assigneeId: 'usr_ana',
    labels: ['urgent', 'ui'],
    priorityId: 'pri_1',
  });
  const b = issue({
    key: 'WEB-2',
    issueId: 'iss_2',
    number: 2,
    assigneeId: 'usr_bo',
    labels: ['blocker'],
    priorityId: 'pri_3',
  });
  const c = issue({
    key: 'WEB-3',
    number: 3,
    labels: [],
    statusId: 'sts_done',
    statusCategory: 'done',
    resolutionId: 'res_done',
  });
  const d = issue({
    key: 'API-1',
    issueId: 'iss_3',
    spaceId: 'spc_api',
    number: 1,
    assigneeId: 'usr_cy',
    typeId: 'typ_bug',
  });
  const all = [a, b, c, d];

  test('= and != (never an empty field), IN and NOT IN, IS EMPTY', async () => {
    expect(await run('assignee = bo@example.com', all)).toEqual(['WEB-2']);
    expect(await run('assignee != "Ana Lima" ORDER BY key', all)).toEqual(['API-1', 'WEB-2']);
    expect(await run('NOT assignee = usr_ana ORDER BY key', all)).toEqual(['API-1', 'WEB-2']);
    expect(await run('assignee is EMPTY', all)).toEqual(['WEB-3']);
    expect(await run('assignee in (usr_ana, EMPTY) order by key', all)).toEqual(['WEB-1', 'WEB-3']);
    expect(await run('assignee not in (usr_ana, usr_bo)', all)).toEqual(['API-1']);
    expect(await run('labels != urgent', all)).toEqual(['WEB-2']);
    expect(await run('labels in (ui, blocker) order by key desc', all)).toEqual(['WEB-2', 'WEB-1']);
    expect(await run('labels NOT IN (urgent, blocker) OR labels is EMPTY', all)).toEqual(['API-1', 'WEB-3']);
    expect(await run('resolution = Unresolved order by key', all)).toEqual(['API-1', 'WEB-1', 'WEB-2']);
    expect(await run('statusCategory = "In Progress"', all)).toEqual([]);
    expect(await run('statusCategory != Done order by key', all)).toEqual(['API-1', 'WEB-1', 'WEB-2']);
  });

  test('priority takes >, >=, <, <= by the scheme’s order (never an empty priority)', async () => {
    const low = issue({ key: 'WEB-4', number: 4, priorityId: 'pri_4' });
    const pool = [...all, low];
    expect(await run('priority > Medium', pool)).toEqual(['WEB-1']);
    expect(await run('priority >= medium order by key', pool)).toEqual(['WEB-1', 'WEB-2']);
    expect(await run('priority < Medium', pool)).toEqual(['WEB-4']);
    expect(await run('priority <= pri_3 order by key', pool)).toEqual(['WEB-2', 'WEB-4']);
    expect(await run('NOT priority > High order by key', pool)).toEqual(['WEB-2', 'WEB-4']);
  });

  test('keys, former keys and spaces by key or name; key order within a space', async () => {
    expect(await run('key = OLD-1', all)).toEqual(['WEB-1']);
    expect(await run('issuekey in (WEB-2, API-1, NOPE-9) order by key', all)).toEqual(['API-1', 'WEB-2']);
    expect(await run('key > WEB-1 order by key', all)).toEqual(['WEB-2', 'WEB-3']);
    expect(await run('project = "Public API"', all)).toEqual(['API-1']);
    expect(await run('space = SITE AND type != Bug order by key', all)).toEqual(['WEB-1', 'WEB-2', 'WEB-3']);
  });

  test('currentUser(), membersOf(), sprint functions, releasedVersions()', async () => {
    const s1 = issue({
      key: 'WEB-10',
      number: 10,
      sprintId: 'spr_2',
      closedSprintIds: ['spr_1'],
      fixVersionIds: ['ver_1'],
    });
    const s2 = issue({ key: 'WEB-11', number: 11, sprintId: 'spr_3', fixVersionIds: ['ver_2'] });
    const pool = [...all, s1, s2];
    expect(await run('assignee = currentUser()', pool)).toEqual(['WEB-1']);
    expect(await run('assignee = currentUser()', pool, { currentUser: undefined })).toEqual([]);
    expect(await run('assignee in membersOf(developers) order by key', pool)).toEqual(['WEB-1', 'WEB-2']);
    expect(await run('sprint in openSprints()', pool)).toEqual(['WEB-10']);
    expect(await run('sprint in closedSprints()', pool)).toEqual(['WEB-10']);
    expect(await run('sprint in futureSprints()', pool)).toEqual(['WEB-11']);
    expect(await run('sprint = "WEB Sprint 1"', pool)).toEqual(['WEB-10']);
    expect(await run('sprint is EMPTY order by key', pool)).toEqual(['API-1', 'WEB-1', 'WEB-2', 'WEB-3']);
    expect(await run('fixVersion in releasedVersions()', pool)).toEqual(['WEB-10']);
    expect(await run('fixVersion in unreleasedVersions("WEB")', pool)).toEqual(['WEB-11']);
    expect(await run('fixVersion in ("3.14", "4.2") order by key', pool)).toEqual(['WEB-10', 'WEB-11']);
  });

  test('~ is word containment, blind to case and accents, with a * suffix wildcard and "phrases"', async () => {
    const t1 = issue({ key: 'WEB-20', summary: 'Full-screen mode crashes on Windows', excerpt: 'Café menu is broken' });
    const t2 = issue({ key: 'WEB-21', summary: 'Screen is full of errors', environment: 'Windows 11' });
    const t3 = issue({ key: 'WEB-22', summary: 'Nothing here', fields: { customfield_10010: 'Platform Team' } });
    const t4 = { ...issue({ key: 'WEB-23', summary: 'Quiet one' }), commentBodies: ['Seen on Windows too', 'Fixed'] };
    const pool = [t1, t2, t3, t4];
    expect(await run('summary ~ "full screen" order by key', pool)).toEqual(['WEB-20', 'WEB-21']);
    expect(await run('summary ~ "\\"full screen\\""', pool)).toEqual(['WEB-20']);
    expect(await run('summary ~ win*', pool)).toEqual(['WEB-20']);
    expect(await run('summary ~ win', pool)).toEqual([]);
    expect(await run('description ~ CAFE', pool)).toEqual(['WEB-20']);
    expect(await run('summary !~ screen order by key', pool)).toEqual(['WEB-22', 'WEB-23']);
    expect(await run('environment !~ linux', pool)).toEqual(['WEB-21']);
    expect(await run('text ~ windows order by key', pool)).toEqual(['WEB-20', 'WEB-21', 'WEB-23']);
    expect(await run('comment ~ windows', pool)).toEqual(['WEB-23']);
    expect(await run('comment !~ fixed', pool)).toEqual([]);
    expect(await run('text ~ platform', pool)).toEqual(['WEB-22']);
    expect(await run('Team ~ platform', pool)).toEqual(['WEB-22']);
  });

  test('custom fields by name and by cf[id]', async () => {
    const x = issue({
      key: 'WEB-30',
      fields: { customfield_10010: 'Core', customfield_10020: 3, customfield_10030: '2024-04-01' },
    });
    const y = issue({ key: 'WEB-31', fields: { customfield_10010: ['Core', 'Edge'], customfield_10020: 7 } });
    const z = issue({ key: 'WEB-32', fields: {} });
    const pool = [x, y, z];
    expect(await run('cf[10010] = core order by key', pool)).toEqual(['WEB-30', 'WEB-31']);
    expect(await run('Team = Edge', pool)).toEqual(['WEB-31']);
    expect(await run('Team != Edge', pool)).toEqual(['WEB-30']);
    expect(await run('Team is empty', pool)).toEqual(['WEB-32']);
    expect(await run('Severity > 5', pool)).toEqual(['WEB-31']);
    expect(await run('cf[10020] <= 3', pool)).toEqual(['WEB-30']);
    expect(await run('"Go-live" < 2024-05-01', pool)).toEqual(['WEB-30']);
    expect(await run('order by Severity desc', pool)).toEqual(['WEB-32', 'WEB-31', 'WEB-30']);
  });

  test('numbers: story points and estimates', async () => {
    const p = [
      issue({ key: 'WEB-40', storyPoints: 3, originalEstimate: 3600 }),
      issue({ key: 'WEB-41', storyPoints: 8 }),
    ];
    expect(await run('storyPoints > 3', p)).toEqual(['WEB-41']);
    expect(await run('"Story Points" in (3, 5)', p)).toEqual(['WEB-40']);
    expect(await run('originalEstimate is not empty', p)).toEqual(['WEB-40']);
    expect(await run('timeoriginalestimate != 60', p)).toEqual(['WEB-40']);
  });
});

describe('dates, relative dates and date functions, with a fixed now (Friday 2024-03-15 12:00 UTC)', () => {
  const at = (key: string, createdAt: number, over: Partial<JqlIssue> = {}) => issue({ key, createdAt, ...over });
  const pool = [
    at('WEB-50', NOW - 10 * DAY),
    at('WEB-51', NOW - 3 * DAY, { dueDate: '2024-03-14' }),
    at('WEB-52', NOW - 2 * 3_600_000, { dueDate: '2024-03-15' }),
    at('WEB-53', Date.UTC(2024, 2, 11, 0, 0), { dueDate: '2024-03-20' }),
    at('WEB-54', Date.UTC(2024, 2, 14, 23, 30)),
  ];

  test.each<[string, string[]]>([
    ['created >= -7d', ['WEB-51', 'WEB-52', 'WEB-53', 'WEB-54']],
    ['created >= "-1w"', ['WEB-51', 'WEB-52', 'WEB-53', 'WEB-54']],
    ['created > -3h', ['WEB-52']],
    ['created > "-1d 12h"', ['WEB-52', 'WEB-54']],
    ['created < -4w', []],
    ['created >= startOfDay()', ['WEB-52']],
    ['created >= startOfDay("-1d")', ['WEB-52', 'WEB-54']],
    ['created <= endOfDay("-1d") and created >= startOfDay(-1d)', ['WEB-54']],
    ['created >= startOfWeek()', ['WEB-51', 'WEB-52', 'WEB-53', 'WEB-54']],
    ['created < startOfWeek() ', ['WEB-50']],
    ['created >= startOfMonth()', ['WEB-50', 'WEB-51', 'WEB-52', 'WEB-53', 'WEB-54']],
    ['created >= startOfYear("+1y")', []],
    ['created < endOfMonth("-1M")', []],
    ['created >= "2024-03-11"', ['WEB-51', 'WEB-52', 'WEB-53', 'WEB-54']],
    ['created = "2024/03/11 00:00"', ['WEB-53']],
    ['created > "2024/03/14 23:00" and created < now()', ['WEB-52', 'WEB-54']],
    ['due < now()', ['WEB-51', 'WEB-52']],
    ['duedate = 2024-03-15', ['WEB-52']],
    ['due <= endOfWeek()', ['WEB-51', 'WEB-52']],
    ['due > endOfWeek() ', ['WEB-53']],
    ['due is empty', ['WEB-50', 'WEB-54']],
  ])('%s', async (query, keys) => {
    expect(await run(`${query} order by key`, pool)).toEqual(keys);
  });

  test('dates are read in the context’s time zone', async () => {
    // 23:30 UTC on the 14th is already the 15th in Paris: "today" there.
    expect(await run('created >= startOfDay() order by key', pool, { timeZone: 'Europe/Paris' })).toEqual([
      'WEB-52',
      'WEB-54',
    ]);
    expect(await run('created >= "2024-03-15"', pool, { timeZone: 'Europe/Paris' })).toEqual(['WEB-52', 'WEB-54']);
  });
});

describe('WAS and CHANGED over statusLog', () => {
  const h = (key: string, log: ([string, number] | [string, number, string])[]) =>
    issue({ key, statusLog: log, statusId: log[log.length - 1]![0], createdAt: log[0]![1] });
  const t0 = Date.UTC(2024, 0, 10);
  const pool = [
    h('WEB-60', [
      ['sts_todo', t0, 'usr_bo'],
      ['sts_prog', t0 + 2 * DAY, 'usr_ana'],
      ['sts_done', t0 + 5 * DAY, 'usr_bo'],
    ]),
    h('WEB-61', [
      ['sts_todo', t0],
      ['sts_prog', t0 + 20 * DAY],
    ]),
    h('WEB-62', [['sts_todo', t0]]),
    issue({ key: 'WEB-63', statusLog: [], statusId: 'sts_review', createdAt: t0 }),
  ];

  test.each<[string, string[]]>([
    ['status WAS "In Progress"', ['WEB-60', 'WEB-61']],
    ['status WAS NOT "In Progress"', ['WEB-62', 'WEB-63']],
    ['status WAS "In Progress" BEFORE "2024-01-15"', ['WEB-60']],
    ['status WAS "In Progress" AFTER "2024-01-20"', ['WEB-61']],
    ['status WAS "To Do" ON "2024-01-12"', ['WEB-61', 'WEB-62']],
    ['status WAS "To Do" ON "2024-01-11"', ['WEB-60', 'WEB-61', 'WEB-62']],
    ['status WAS IN (Done, "In Review")', ['WEB-60', 'WEB-63']],
    ['status WAS NOT IN (Done, "In Review") DURING ("2024/01/01", "2024/01/31")', ['WEB-61', 'WEB-62']],
    ['status WAS "In Progress" DURING ("2024-01-14", "2024-01-25")', ['WEB-60']],
    ['status WAS "In Progress" DURING ("2024-01-16", "2024-01-25")', []],
    ['status CHANGED', ['WEB-60', 'WEB-61']],
    ['NOT status CHANGED', ['WEB-62', 'WEB-63']],
    ['status CHANGED TO Done', ['WEB-60']],
    ['status CHANGED FROM "To Do" TO "In Progress" AFTER "2024-01-15"', ['WEB-61']],
    ['status CHANGED FROM "In Progress" BEFORE "2024-01-20"', ['WEB-60']],
    ['status CHANGED ON "2024-01-12"', ['WEB-60']],
    ['status CHANGED DURING (startOfMonth("-2M"), endOfMonth("-2M"))', ['WEB-60', 'WEB-61']],
    // BY: who made the change (entries without it, as older and imported ones, match no one).
    ['status WAS "In Progress" BY usr_ana', ['WEB-60']],
    ['status WAS "In Progress" BY "bo@example.com"', []],
    ['status WAS "To Do" BY "Bo Chen"', ['WEB-60']],
    ['status CHANGED BY currentUser()', ['WEB-60']],
    ['status CHANGED TO Done BY usr_ana', []],
    ['status CHANGED TO Done BY membersOf(developers) BEFORE "2024-01-16"', ['WEB-60']],
    ['status WAS NOT "To Do" BY usr_bo', ['WEB-61', 'WEB-62', 'WEB-63']],
  ])('%s', async (query, keys) => {
    expect(await run(`${query} order by key`, pool)).toEqual(keys);
  });
});

describe('WAS and CHANGED over the field log (assignee, reporter, priority, resolution, fixVersion)', () => {
  const t0 = Date.UTC(2024, 0, 10);
  const pool = [
    // Assigned to Ana by Bo on the 12th, then to nobody by Ana on the 15th; priority raised on the 14th.
    issue({
      key: 'WEB-70',
      createdAt: t0,
      priorityId: 'pri_1',
      fieldLog: [
        ['assignee', [], ['usr_ana'], t0 + 2 * DAY, 'usr_bo'],
        ['priority', ['pri_3'], ['pri_1'], t0 + 4 * DAY, 'usr_ana'],
        ['assignee', ['usr_ana'], [], t0 + 5 * DAY, 'usr_ana'],
      ],
    }),
    // Never changed: its values since creation.
    issue({ key: 'WEB-71', createdAt: t0, assigneeId: 'usr_bo', priorityId: 'pri_3' }),
    // Fix versions added and removed (no one recorded: an imported change).
    issue({
      key: 'WEB-72',
      createdAt: t0,
      fixVersionIds: ['ver_2'],
      fieldLog: [
        ['fixVersion', ['ver_1'], ['ver_1', 'ver_2'], t0 + DAY],
        ['fixVersion', ['ver_1', 'ver_2'], ['ver_2'], t0 + 3 * DAY],
      ],
    }),
  ];

  test.each<[string, string[]]>([
    ['assignee WAS usr_ana', ['WEB-70']],
    ['assignee WAS EMPTY', ['WEB-70', 'WEB-72']],
    ['assignee WAS "Bo Chen"', ['WEB-71']],
    ['assignee WAS usr_ana ON "2024-01-13"', ['WEB-70']],
    ['assignee WAS usr_ana AFTER "2024-01-16"', []],
    ['assignee CHANGED', ['WEB-70']],
    ['assignee CHANGED FROM EMPTY TO usr_ana BY usr_bo', ['WEB-70']],
    ['assignee CHANGED TO EMPTY', ['WEB-70']],
    ['assignee CHANGED BY usr_bo AFTER "2024-01-13"', []],
    ['priority CHANGED FROM Medium TO Highest', ['WEB-70']],
    ['priority WAS Medium', ['WEB-70', 'WEB-71']],
    ['priority WAS NOT Medium', ['WEB-72']],
    ['fixVersion WAS "3.14"', ['WEB-72']],
    ['fixVersion CHANGED FROM "4.2"', ['WEB-72']],
    ['fixVersion CHANGED BY usr_ana', []],
    ['reporter CHANGED', []],
    ['resolution WAS EMPTY', ['WEB-70', 'WEB-71', 'WEB-72']],
  ])('%s', async (query, keys) => {
    expect(await run(`${query} order by key`, pool)).toEqual(keys);
  });
});

describe('narrowing: the top-level AND constraints on key, space, sprint, assignee and status', () => {
  const narrowOf = async (q: string) => {
    const { narrow } = await compileJql(q, ctx());
    return Object.fromEntries(Object.entries(narrow).map(([k, s]) => [k, [...(s as Set<string>)].sort()]));
  };

  test.each<[string, Record<string, string[]>]>([
    ['', {}],
    ['project = WEB', { spaceIds: ['spc_web'] }],
    [
      'project in (WEB, API) AND status = Done AND assignee = currentUser()',
      {
        spaceIds: ['spc_api', 'spc_web'],
        statusIds: ['sts_done'],
        assigneeIds: ['usr_ana'],
      },
    ],
    [
      'project in (WEB, API) AND (project = API AND sprint in openSprints())',
      { spaceIds: ['spc_api'], sprintIds: ['spr_2'] },
    ],
    ['key in (WEB-1, OLD-1, API-1)', { issueIds: ['iss_1', 'iss_3'] }],
    ['project = WEB OR status = Done', {}],
    ['assignee in (usr_ana, EMPTY)', {}],
    ['assignee != usr_ana', {}],
    ['NOT (status != Done OR project != WEB)', { statusIds: ['sts_done'], spaceIds: ['spc_web'] }],
    ['status = Done AND status = "To Do"', { statusIds: [] }],
    // An issue has several sprints: two sprint constraints keep one set, not their (empty) intersection.
    ['sprint = "WEB Sprint 1" AND sprint in (spr_2, spr_3)', { sprintIds: ['spr_1'] }],
    ['type = Bug AND labels = x', {}],
  ])('%s', async (query, expected) => {
    expect(await narrowOf(query)).toEqual(expected);
  });
});

describe('ORDER BY and the default order', () => {
  const p = [
    issue({ key: 'WEB-9', number: 9, rank: 'a2', priorityId: 'pri_3', createdAt: NOW - 5 * DAY, updatedAt: NOW - 1 }),
    issue({ key: 'WEB-10', number: 10, rank: 'a1', priorityId: 'pri_1', createdAt: NOW - 9 * DAY, updatedAt: NOW - 3 }),
    issue({
      key: 'API-2',
      spaceId: 'spc_api',
      number: 2,
      rank: 'Zz',
      createdAt: NOW - 7 * DAY,
      updatedAt: NOW - 2,
      assigneeId: 'usr_bo',
    }),
    issue({
      key: 'WEB-11',
      number: 11,
      rank: 'a1V',
      priorityId: 'pri_1',
      createdAt: NOW - 9 * DAY,
      updatedAt: NOW - 3,
      assigneeId: 'usr_ana',
    }),
  ];
  const sorted = async (query: string, order?: 'rank' | 'updated' | 'created' | 'key') => {
    const c = await compileJql(query, ctx(), { order });
    return [...p].sort(c.compare).map((i) => i.key);
  };

  test('keys sort by space then number, ties broken by key', async () => {
    expect(await sorted('order by key')).toEqual(['API-2', 'WEB-9', 'WEB-10', 'WEB-11']);
    expect(await sorted('order by created desc')).toEqual(['WEB-9', 'API-2', 'WEB-10', 'WEB-11']);
  });
  test('catalog fields sort by their catalog order, empty values last (first when descending)', async () => {
    expect(await sorted('order by assignee')).toEqual(['WEB-11', 'API-2', 'WEB-9', 'WEB-10']);
  });
  test('priority sorts by the scheme, the highest greatest: DESC lists it first, as Jira does', async () => {
    expect(await sorted('order by priority desc, key')).toEqual(['API-2', 'WEB-10', 'WEB-11', 'WEB-9']);
    expect(await sorted('order by priority, key desc')).toEqual(['WEB-9', 'WEB-11', 'WEB-10', 'API-2']);
  });
  test('rank compares byte-wise (uppercase before lowercase), as DynamoDB sorts', async () => {
    expect(await sorted('order by rank')).toEqual(['API-2', 'WEB-10', 'WEB-11', 'WEB-9']);
  });
  test('without ORDER BY the `order` option applies: most recently updated by default', async () => {
    expect(await sorted('')).toEqual(['WEB-9', 'API-2', 'WEB-10', 'WEB-11']);
    expect(await sorted('', 'rank')).toEqual(['API-2', 'WEB-10', 'WEB-11', 'WEB-9']);
    expect(await sorted('project = WEB', 'key')).toEqual(['API-2', 'WEB-9', 'WEB-10', 'WEB-11']);
    expect((await compileJql('order by created', ctx(), { order: 'rank' })).orderBy).toEqual([
      { field: 'created', direction: 'asc' },
    ]);
  });
  test('fieldsUsed names the fields a query reads', async () => {
    const c = await compileJql('project = WEB and Team = x and issuetype = Bug order by rank', ctx());
    expect(c.fieldsUsed.sort()).toEqual(['fields.customfield_10010', 'rank', 'space', 'type']);
  });
});
