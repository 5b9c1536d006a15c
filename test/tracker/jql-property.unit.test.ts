import fc from 'fast-check';
import { compileJql, JqlError, type JqlIssue, parseJql, withinNarrow } from '../../shared/domains/tracker/jql';
import { ctx, DAY, issue, NOW } from '../fixtures/tracker/jql-world';

/**
 * Property tests with fixed seeds (the same cases each run; change a seed to explore others).
 * Narrowing never loses a match. For random issues and random queries built from the
 * grammar, filtering every issue with `matches` equals reading only the issues inside `narrow`
 * (what the tracker reads from DynamoDB) and then filtering with `matches`.
 */

const spaces = ['spc_web', 'spc_api'] as const;
const statuses = ['sts_todo', 'sts_prog', 'sts_review', 'sts_done'] as const;
const people = ['usr_ana', 'usr_bo', 'usr_cy', 'usr_dee'] as const;
const sprints = ['spr_1', 'spr_2', 'spr_3'] as const;

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const issueArb: fc.Arbitrary<JqlIssue> = fc
  .record({
    id: fc.integer({ min: 1, max: 6 }),
    space: fc.constantFrom(...spaces),
    number: fc.integer({ min: 1, max: 30 }),
    log: fc.array(fc.tuple(fc.constantFrom(...statuses), fc.integer({ min: 0, max: 60 })), {
      minLength: 1,
      maxLength: 4,
    }),
    assigneeId: maybe(fc.constantFrom(...people)),
    reporterId: maybe(fc.constantFrom(...people)),
    sprintId: maybe(fc.constantFrom(...sprints)),
    closedSprintIds: fc.subarray([...sprints]),
    labels: fc.subarray(['ui', 'urgent', 'blocker']),
    priorityId: maybe(fc.constantFrom('pri_1', 'pri_2', 'pri_3', 'pri_4')),
    storyPoints: maybe(fc.integer({ min: 0, max: 13 })),
    dueDate: maybe(fc.constantFrom('2024-03-01', '2024-03-15', '2024-04-30')),
    summary: fc.constantFrom('Login fails', 'Full screen crash', 'Café menu', 'Add search'),
    team: maybe(fc.constantFrom('Core', 'Edge')),
  })
  .map((r) => {
    // statusLog in time order, days before now; the current status is the last entry.
    const days = r.log.map(([, d]) => d).sort((a, b) => b - a);
    const statusLog = r.log.map(([s], k) => [s, NOW - days[k]! * DAY] as [string, number]);
    const statusId = statusLog[statusLog.length - 1]![0];
    return issue({
      issueId: `iss_${r.id}`,
      spaceId: r.space,
      number: r.number,
      key: `${r.space === 'spc_api' ? 'API' : 'WEB'}-${r.number}`,
      statusId,
      statusCategory: statusId === 'sts_done' ? 'done' : statusId === 'sts_todo' ? 'todo' : 'inprogress',
      statusLog,
      createdAt: statusLog[0]![1],
      updatedAt: NOW - (r.number % 5) * DAY,
      assigneeId: r.assigneeId,
      reporterId: r.reporterId,
      sprintId: r.sprintId,
      closedSprintIds: r.closedSprintIds,
      labels: r.labels,
      priorityId: r.priorityId,
      storyPoints: r.storyPoints,
      dueDate: r.dueDate,
      summary: r.summary,
      fields: r.team ? { customfield_10010: r.team } : {},
    });
  });

/** A keyword in any case, as users type them. */
const kw = (word: string) => fc.constantFrom(word, word.toLowerCase(), word[0] + word.slice(1).toLowerCase());
const quoted = (s: string) => `"${s}"`;
const listOf = (values: string[]) => fc.subarray(values, { minLength: 1 }).map((v) => `(${v.join(', ')})`);

const spaceNames = ['WEB', 'API', quoted('Public API'), 'spc_web', 'SITE'];
const statusNames = [quoted('To Do'), 'Open', quoted('In Progress'), quoted('In Review'), 'Done', 'sts_done'];
const personNames = ['usr_ana', 'bo@example.com', quoted('Cy Rousseau'), 'dee@example.com'];
const sprintNames = [quoted('WEB Sprint 1'), quoted('WEB Sprint 2'), 'spr_3'];
const keyNames = ['WEB-1', 'OLD-1', 'WEB-2', 'API-1', 'iss_4', 'NOPE-1'];

/** field op value for one field: equality, lists, negations, emptiness and the field's functions. */
function idClause(fields: string[], names: string[], functions: string[] = []) {
  const value = fc.constantFrom(...names, ...functions);
  const inList = fc.oneof(listOf([...names, 'EMPTY']), ...(functions.length ? [fc.constantFrom(...functions)] : []));
  return fc.oneof(
    fc.tuple(fc.constantFrom(...fields), fc.constantFrom('=', '!='), value).map(([f, op, v]) => `${f} ${op} ${v}`),
    fc.tuple(fc.constantFrom(...fields), kw('IN'), inList).map(([f, op, v]) => `${f} ${op} ${v}`),
    fc.tuple(fc.constantFrom(...fields), kw('NOT'), kw('IN'), inList).map(([f, n, op, v]) => `${f} ${n} ${op} ${v}`),
    fc
      .tuple(fc.constantFrom(...fields), kw('IS'), fc.constantFrom('EMPTY', 'NOT EMPTY', 'null'))
      .map((p) => p.join(' ')),
  );
}

const leaf = fc.oneof(
  idClause(['key', 'issuekey'], keyNames),
  idClause(['project', 'space'], spaceNames),
  idClause(['status'], statusNames),
  idClause(['assignee', 'reporter'], personNames, ['currentUser()', 'membersOf("developers")']),
  idClause(['sprint'], sprintNames, ['openSprints()', 'closedSprints()', 'futureSprints()']),
  idClause(['priority'], ['High', 'Highest', 'pri_3']),
  idClause(['labels'], ['ui', 'urgent', 'blocker']),
  idClause(['Team', 'cf[10010]'], ['Core', 'Edge']),
  fc
    .tuple(
      fc.constantFrom('storyPoints', '"Story Points"'),
      fc.constantFrom('>', '>=', '<', '<=', '=', '!='),
      fc.integer({ min: 0, max: 13 }),
    )
    .map((p) => p.join(' ')),
  fc
    .tuple(
      fc.constantFrom('created', 'updated', 'due'),
      fc.constantFrom('>', '>=', '<', '<='),
      fc.constantFrom('-7d', '-2w', 'startOfDay("-1d")', 'startOfMonth()', 'now()', '"2024-03-10"', 'endOfWeek()'),
    )
    .map((p) => p.join(' ')),
  fc
    .tuple(
      fc.constantFrom('summary', 'text'),
      fc.constantFrom('~', '!~'),
      fc.constantFrom('login', 'screen', 'cafe', 'full*', '"\\"full screen\\""'),
    )
    .map((p) => p.join(' ')),
  fc
    .tuple(
      kw('WAS'),
      fc.constantFrom('', 'NOT '),
      fc.constantFrom(...statusNames),
      fc.constantFrom('', ' BEFORE -10d', ' AFTER "2024-03-01"', ' DURING (-30d, -5d)'),
    )
    .map(([w, n, s, p]) => `status ${w} ${n}${s}${p}`),
  fc.tuple(fc.constantFrom('', ' FROM Open', ' TO Done', ' AFTER -20d')).map(([p]) => `status CHANGED${p}`),
);

const { clause } = fc.letrec<{ clause: string }>((tie) => ({
  clause: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.tuple(tie('clause'), kw('AND'), tie('clause')).map(([a, op, b]) => `${a} ${op} ${b}`),
    fc.tuple(tie('clause'), kw('OR'), tie('clause')).map(([a, op, b]) => `${a} ${op} ${b}`),
    fc.tuple(kw('NOT'), tie('clause')).map(([n, c]) => `${n} (${c})`),
    tie('clause').map((c) => `(${c})`),
  ),
}));

/** Constraints the read can be narrowed by (top-level `=` / `IN` on key, space, sprint, assignee, status). */
const narrowing = fc.oneof(
  fc.tuple(fc.constantFrom('key', 'issuekey'), listOf(keyNames)).map(([f, l]) => `${f} in ${l}`),
  fc.tuple(fc.constantFrom('project', 'space'), fc.constantFrom(...spaceNames)).map(([f, v]) => `${f} = ${v}`),
  listOf(statusNames).map((l) => `status IN ${l}`),
  fc.constantFrom(...personNames, 'currentUser()').map((v) => `assignee = ${v}`),
  fc
    .constantFrom(...sprintNames.map((n) => `= ${n}`), 'in openSprints()', 'in (closedSprints(), spr_3)')
    .map((v) => `sprint ${v}`),
);

/** Queries: clauses, often with top-level ANDs on the narrowing fields, and sometimes an ORDER BY. */
const queryArb = fc
  .tuple(
    fc.array(fc.oneof({ arbitrary: narrowing, weight: 2 }, leaf, clause), { minLength: 0, maxLength: 3 }),
    fc.option(fc.constantFrom('ORDER BY key', 'order by priority desc, created', 'ORDER BY rank, assignee DESC'), {
      nil: undefined,
    }),
  )
  .map(([parts, order]) => [parts.join(' AND '), order].filter(Boolean).join(' '));

test('grammar-generated queries parse', () => {
  fc.assert(
    fc.property(queryArb, (q) => {
      expect(() => parseJql(q)).not.toThrow();
    }),
    { numRuns: 300, seed: 19 },
  );
});

test('narrowing never loses a match: narrowed read + matches equals matches over every issue', async () => {
  let narrowed = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(issueArb, { minLength: 1, maxLength: 25 }), queryArb, async (issues, q) => {
      const compiled = await compileJql(q, ctx());
      if (Object.keys(compiled.narrow).length > 0) narrowed++;
      const everyIssue = issues.filter((i) => compiled.matches(i));
      const read = issues.filter((i) => withinNarrow(compiled.narrow, i));
      expect(read.filter((i) => compiled.matches(i))).toEqual(everyIssue);
    }),
    { numRuns: 400, seed: 20 },
  );
  // The property is only worth something if many queries did narrow the read.
  expect(narrowed).toBeGreaterThan(100);
});

test('NOT q matches exactly the issues q does not, when q reads no empty field (Jira’s NOT skips empty ones)', async () => {
  const full = fc.oneof(
    idClause(['project'], spaceNames),
    idClause(['status'], statusNames).filter((c) => !c.includes('EMPTY') && !c.includes('null')),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(issueArb, { minLength: 1, maxLength: 10 }), full, async (issues, q) => {
      const yes = await compileJql(q, ctx());
      const no = await compileJql(`NOT (${q})`, ctx());
      for (const i of issues) expect(no.matches(i)).toBe(!yes.matches(i));
    }),
    { numRuns: 200, seed: 21 },
  );
});

const sign = (x: number) => (x > 0 ? 1 : x < 0 ? -1 : 0);

test('compare is a total order: antisymmetric, and 0 only for the same issue', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(issueArb, { minLength: 2, maxLength: 12, selector: (i) => i.issueId }),
      fc.constantFrom('', 'ORDER BY priority DESC', 'order by assignee, due desc', 'ORDER BY rank', 'order by Team'),
      async (issues, q) => {
        const { compare } = await compileJql(q, ctx());
        for (const a of issues) {
          for (const b of issues) {
            expect(sign(compare(a, b)) + sign(compare(b, a))).toBe(0);
            if (a !== b) expect(compare(a, b)).not.toBe(0);
          }
        }
      },
    ),
    { numRuns: 100, seed: 22 },
  );
});

/** A generated query with a few characters inserted or removed: mostly broken queries. */
const mutated = fc
  .tuple(
    queryArb,
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom('(', ')', '"', "'", '\\', ',', '=', '!', ' ', 'AND ', 'NOT ', '~', 'cf[', '-', ''),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([q, edits]) =>
    edits.reduce((text, [at, insert]) => {
      const i = text.length === 0 ? 0 : at % text.length;
      return insert === '' ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + insert + text.slice(i);
    }, q),
  );

test('any text is a query or a 400 (JqlError), never another error', async () => {
  let refused = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(mutated, fc.string({ maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 30 })),
      async (q) => {
        try {
          const c = await compileJql(q, ctx());
          c.matches(issue());
        } catch (e) {
          expect(e).toBeInstanceOf(JqlError);
          const err = e as JqlError;
          expect(err.kind).toBe('invalid');
          expect(err.line).toBeGreaterThanOrEqual(1);
          expect(err.column).toBeGreaterThanOrEqual(1);
          refused++;
        }
      },
    ),
    { numRuns: 500, seed: 23 },
  );
  expect(refused).toBeGreaterThan(100);
});
