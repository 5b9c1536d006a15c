import { readFileSync, writeFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import type { Board, Issue, Operations, Sprint } from '../../client';
import { ISSUE_TYPES, PRIORITIES, STATUSES } from '../../shared/domains/tracker/catalog';
import { CliError, UsageError } from '../context';
import { bytes, table, when } from '../output';
import type { CommandSpec, Ctx } from '../spec';
import { TransferMeter, uploadFile } from '../transfer';
import { bodyOf, intOption, list, localFile } from './common';

/**
 * `track`: the issue tracker (spaces of issues searched with JQL) over the typed client: search,
 * create, view, transition, rank, import a Jira CSV export, start and close a scrum board's sprints.
 */

type ImportAnswer = Operations['postIssuesImport']['response'];

const org = async (c: Ctx) => {
  const s = await c.session();
  return { api: s.api, orgId: s.config.orgId };
};
const width = (c: Ctx) => c.io;
/** The catalog's names of its ids (`inprogress` → In Progress); ids it doesn't know as they are. */
const nameIn = (list: { id: string; name: string }[]) => (id: string) => list.find((s) => s.id === id)?.name ?? id;
const statusName = nameIn(STATUSES);
const typeName = nameIn(ISSUE_TYPES);
const priorityName = nameIn(PRIORITIES);

/** The members' names by user id (who an issue is assigned to); none when the caller may not list them. */
async function namesOf(c: Ctx, ids: (string | undefined)[]): Promise<Map<string, string>> {
  const wanted = ids.filter((id): id is string => Boolean(id));
  if (wanted.length === 0) return new Map();
  const { api, orgId } = await org(c);
  const res = await api.getMembers({ orgId }).catch(() => ({ members: [] }));
  return new Map(res.members.map((m) => [m.userId, m.name || m.email || m.userId]));
}

function issueTable(c: Ctx, issues: Issue[], names: Map<string, string>): string {
  return table(
    [
      ['KEY', 'SUMMARY', 'STATUS', 'ASSIGNEE'],
      ...issues.map((i) => [
        i.key,
        i.summary,
        statusName(i.statusId),
        i.assigneeId ? (names.get(i.assigneeId) ?? i.assigneeId) : '-',
      ]),
    ],
    width(c),
    [0, 2],
  );
}

/** Past this size an import file is uploaded through a presigned link, not sent in each call's body. */
const INLINE_IMPORT_BYTES = 1024 * 1024;

/** A Jira CSV export, or this API's JSON export: its path, format and size. */
function importFile(c: Ctx, name: string): { file: string; format: 'csv' | 'json'; size: number } {
  const { file, size } = localFile(c, name, { empty: false });
  return { file, format: extname(file).toLowerCase() === '.json' ? 'json' : 'csv', size };
}

const TEMPLATES = ['scrum', 'kanban', 'bugs', 'service', 'basic'] as const;

/** `--space KEY` and `--board ID`: whose sprints (a space with one scrum board needs no --board). */
const SPRINT_OPTIONS = {
  space: { type: 'string', value: 'KEY', help: 'the space whose scrum board it is', complete: 'space' },
  board: { type: 'string', value: 'ID', help: 'the board (when the space has several scrum boards)' },
} as const;

/** The scrum board of `--board`, else the one of `--space`, else the board of the sprint named by its id. */
async function boardOf(c: Ctx): Promise<Board> {
  const { api, orgId } = await org(c);
  const space = c.str('space');
  const sprintId = !space && /^spr_/.test(c.args[0] ?? '') ? (c.args[0] as string) : undefined;
  const boardId =
    c.str('board') ?? (sprintId && (await api.getIssuesSprintsBySprintId({ orgId, sprintId })).sprint.boardId);
  if (boardId) return (await api.getIssuesBoardsByBoardId({ orgId, boardId })).board;
  if (!space) throw new UsageError('Name the space: --space KEY (or the board: --board ID, or the sprint by its id).');
  const { boards } = await api.getIssuesBoards({ orgId, space });
  const scrum = boards.filter((b) => b.config.type === 'scrum');
  if (scrum.length === 1) return scrum[0] as Board;
  if (scrum.length === 0)
    throw new CliError(`${space} has no scrum board: sprints belong to scrum boards (its template scrum makes one).`);
  throw new UsageError(
    `${space} has ${scrum.length} scrum boards; name one: --board ${scrum.map((b) => `${b.boardId} (${b.name})`).join(', ')}.`,
  );
}

/** A sprint of the board named by id or by name (case aside). */
function sprintNamed(sprints: Sprint[], board: Board, name: string): Sprint {
  const lower = name.trim().toLowerCase();
  const found = sprints.find((s) => s.sprintId === name) ?? sprints.find((s) => s.name.toLowerCase() === lower);
  if (found) return found;
  const known = sprints.filter((s) => s.state !== 'closed').map((s) => `${s.name} (${s.state})`);
  throw new CliError(`${board.name} has no sprint ${name}${known.length ? ` (open ones: ${known.join(', ')})` : ''}.`);
}

/** The board and its sprints, in board order. */
async function sprintsOf(c: Ctx) {
  const { api, orgId } = await org(c);
  const board = await boardOf(c);
  const { sprints } = await api.getIssuesBoardsSprints({ orgId, boardId: board.boardId });
  return { api, orgId, board, sprints };
}

const day = (ms: number | undefined) => (ms === undefined ? '-' : when(ms).slice(0, 10));
const WEEK_MS = 7 * 86_400_000;

const SPRINT_COMMANDS: CommandSpec[] = [
  {
    path: ['track', 'sprint', 'list'],
    aliases: ['ls'],
    summary: "a scrum board's sprints in board order: name, state, start, end, id",
    options: SPRINT_OPTIONS,
    examples: ['platform track sprint list --space OPS'],
    run: async (c) => {
      const { board, sprints } = await sprintsOf(c);
      return c.print({ board, sprints }, () =>
        sprints.length === 0
          ? `${board.name} has no sprints. Start one: platform track sprint start --board ${board.boardId}`
          : table(
              [
                ['SPRINT', 'STATE', 'START', 'END', 'ID'],
                ...sprints.map((s) => [s.name, s.state, day(s.startDate), day(s.endDate), s.sprintId]),
              ],
              c.io,
              [1, 2, 3, 4],
              1,
            ),
      );
    },
  },
  {
    path: ['track', 'sprint', 'create'],
    summary: 'plan a future sprint on a scrum board (put issues in it, then start it)',
    options: {
      ...SPRINT_OPTIONS,
      name: { type: 'string', value: 'N', help: 'its name (default "<board> Sprint <n>")' },
      goal: { type: 'string', value: 'TEXT', help: 'its goal' },
    },
    examples: ['platform track sprint create --space OPS --name "OPS Sprint 5" --goal "Faster search"'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const board = await boardOf(c);
      const res = await api.postIssuesBoardsSprints({
        orgId,
        boardId: board.boardId,
        body: { name: c.str('name'), goal: c.str('goal') },
      });
      const s = res.sprint;
      return c.print(
        res,
        () =>
          `Planned ${s.name} (${s.sprintId}) on ${board.name}. Add issues: platform track create <summary> --space ${c.str('space') ?? 'KEY'} --sprint "${s.name}"`,
      );
    },
  },
  {
    path: ['track', 'sprint', 'start'],
    summary: "start a sprint: the named one, else the board's next future sprint (made when it has none)",
    details:
      'Its issues at that moment are what it committed to (the report at its close counts from them). One sprint\n' +
      'of a board is active at a time. Without --weeks it ends on the end date it was given, else in 2 weeks.\n' +
      'Put issues in it with platform track create --sprint, or on the board.',
    positionals: [{ name: 'sprint', help: "the sprint's name or id (default: the next future one)" }],
    options: {
      ...SPRINT_OPTIONS,
      name: { type: 'string', value: 'N', help: 'its name (a sprint it makes: default "<board> Sprint <n>")' },
      goal: { type: 'string', value: 'TEXT', help: 'its goal' },
      weeks: { type: 'string', value: 'N', help: 'it lasts N weeks from now (1-26)' },
    },
    examples: [
      'platform track sprint start --space OPS --weeks 2 --goal "Checkout on Safari"',
      'platform track sprint start "OPS Sprint 4" --space OPS',
    ],
    run: async (c) => {
      const weeks = intOption(c, 'weeks', 1, 26);
      const { api, orgId, board, sprints } = await sprintsOf(c);
      const wanted = c.args[0];
      let sprint = wanted ? sprintNamed(sprints, board, wanted) : sprints.find((s) => s.state === 'future');
      if (sprint?.state === 'active') throw new CliError(`${sprint.name} is active already.`);
      if (sprint?.state === 'closed') throw new CliError(`${sprint.name} is closed; start a future sprint.`);
      sprint ??= (await api.postIssuesBoardsSprints({ orgId, boardId: board.boardId, body: { name: c.str('name') } }))
        .sprint;
      const now = Date.now();
      const res = await api.patchIssuesSprintsBySprintId({
        orgId,
        sprintId: sprint.sprintId,
        body: {
          state: 'active',
          name: c.str('name'),
          goal: c.str('goal'),
          ...(weeks ? { startDate: now, endDate: now + weeks * WEEK_MS } : {}),
        },
      });
      const s = res.sprint;
      return c.print(res, () => `Started ${s.name} (${s.sprintId}) on ${board.name}, until ${day(s.endDate)}.`);
    },
  },
  {
    path: ['track', 'sprint', 'close'],
    aliases: ['complete'],
    summary: 'complete the active sprint: its report, and its unfinished issues to the backlog or another sprint',
    details:
      "Done issues (their status's category is done) stay with it; the others go to the backlog, or to\n" +
      'the future sprint --carry-to names (next: the first one). --json prints the sprint with its report.',
    positionals: [{ name: 'sprint', help: "the sprint's name or id (default: the board's active one)" }],
    options: {
      ...SPRINT_OPTIONS,
      'carry-to': {
        type: 'string',
        value: 'SPRINT',
        help: 'a future sprint (name, id, or next) for unfinished issues',
      },
    },
    examples: ['platform track sprint close --space OPS', 'platform track sprint close --space OPS --carry-to next'],
    run: async (c) => {
      const { api, orgId, board, sprints } = await sprintsOf(c);
      const wanted = c.args[0];
      const sprint = wanted ? sprintNamed(sprints, board, wanted) : sprints.find((s) => s.state === 'active');
      if (!sprint) throw new CliError(`No sprint of ${board.name} is active.`);
      const carry = c.str('carry-to');
      const future = sprints.filter((s) => s.state === 'future');
      const carryTo =
        carry === undefined
          ? undefined
          : carry === 'next'
            ? (future[0] ?? fail(`${board.name} has no future sprint to carry the unfinished issues to.`))
            : sprintNamed(sprints, board, carry);
      const res = await api.patchIssuesSprintsBySprintId({
        orgId,
        sprintId: sprint.sprintId,
        body: { state: 'closed', ...(carryTo ? { carryTo: carryTo.sprintId } : {}) },
      });
      const report = res.sprint.data.report;
      return c.print(res, () => {
        if (!report) return `Closed ${res.sprint.name}.`;
        const total = report.completed + report.incomplete;
        const where = carryTo ? carryTo.name : 'the backlog';
        const open = report.incomplete ? ` ${report.incomplete} unfinished moved to ${where}.` : '';
        return `Closed ${res.sprint.name}: ${report.completed} of ${total} issue${total === 1 ? '' : 's'} done.${open}`;
      });
    },
  },
  {
    path: ['track', 'sprint', 'add'],
    aliases: ['move'],
    summary: 'put existing issues in a sprint (from the backlog or another sprint)',
    details:
      'The sprint by its id or by the name of one not closed. platform track sprint remove puts them back in the backlog.',
    positionals: [
      { name: 'sprint', required: true },
      { name: 'keys…', required: true },
    ],
    examples: ['platform track sprint add "OPS Sprint 2" OPS-4 OPS-7'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const [sprint, ...keys] = c.args as [string, ...string[]];
      const issues: Issue[] = [];
      for (const issueKey of keys)
        issues.push((await api.putIssuesByIssueKey({ orgId, issueKey, body: { sprint } })).issue);
      return c.print({ issues }, () => `Put ${issues.map((i) => i.key).join(', ')} in ${sprint}.`);
    },
  },
  {
    path: ['track', 'sprint', 'remove'],
    aliases: ['rm'],
    summary: 'take issues out of their sprint, back to the backlog',
    positionals: [{ name: 'keys…', required: true }],
    examples: ['platform track sprint remove OPS-4'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const issues: Issue[] = [];
      for (const issueKey of c.args)
        issues.push((await api.putIssuesByIssueKey({ orgId, issueKey, body: { sprint: null } })).issue);
      return c.print({ issues }, () => `Moved ${issues.map((i) => i.key).join(', ')} to the backlog.`);
    },
  },
];

const fail = (message: string): never => {
  throw new CliError(message);
};

export const TRACKER_COMMANDS: CommandSpec[] = [
  ...SPRINT_COMMANDS,
  {
    path: ['track', 'space', 'create'],
    summary: 'create a space of issues (its KEY prefixes their keys: WEB-1)',
    positionals: [{ name: 'KEY', required: true }],
    options: {
      name: { type: 'string', value: 'N', help: 'its name', required: true },
      template: {
        type: 'string',
        value: TEMPLATES.join('|'),
        help: 'its workflow and board (default: kanban)',
        complete: TEMPLATES,
      },
      description: { type: 'string', value: 'TEXT', help: 'what it is for' },
    },
    examples: ['platform track space create WEB --name "Web site" --template scrum'],
    run: async (c) => {
      const template = (c.str('template') ?? 'kanban') as (typeof TEMPLATES)[number];
      if (!TEMPLATES.includes(template))
        throw new UsageError(`Unknown template ${template}: use ${TEMPLATES.join(', ')}.`);
      const { api, orgId } = await org(c);
      const key = c.args[0] as string;
      const res = await api.postIssuesSpaces({
        orgId,
        body: { key, name: c.str('name') as string, template, description: c.str('description') },
      });
      return c.print(
        res,
        () => `Created space ${key} (${template}). Add an issue: platform track create <summary> --space ${key}`,
      );
    },
  },
  {
    path: ['track', 'export'],
    summary: 'export issues (all, or those a JQL query finds) as CSV or JSON, to a file or stdout',
    details: 'The JSON export is what platform track import reads back (into another space too).',
    positionals: [{ name: 'JQL' }],
    options: {
      format: { type: 'string', value: 'csv|json', help: 'the format (default: json)', complete: ['csv', 'json'] },
      output: { type: 'string', short: 'o', value: 'FILE', help: 'write it to this file', complete: 'file' },
    },
    examples: ["platform track export 'space = WEB' -o web.json", 'platform track export --format csv > issues.csv'],
    run: async (c) => {
      const format = (c.str('format') ?? 'json') as 'csv' | 'json';
      if (format !== 'csv' && format !== 'json') throw new UsageError(`Unknown format ${format}: use csv, json.`);
      const { api, orgId } = await org(c);
      const res = await api.getIssuesExport({ orgId, jql: c.args[0], format });
      const text = typeof res === 'string' ? res : `${JSON.stringify(res, null, 2)}\n`;
      const file = c.str('output');
      if (!file) {
        c.io.stdout(text);
        return 0;
      }
      writeFileSync(resolve(c.io.cwd, file), text);
      const total = typeof res === 'string' ? undefined : res.total;
      c.io.stderr(
        `Exported ${total === undefined ? 'the issues' : `${total} issue${total === 1 ? '' : 's'}`} to ${file}.\n`,
      );
      return 0;
    },
  },
  {
    path: ['track', 'search'],
    aliases: ['list', 'ls'],
    summary: 'issues matching a JQL query (default: all you can see, most recently updated first)',
    details:
      'JQL as in Jira: fields, operators (= != ~ IN IS WAS CHANGED), functions (currentUser(), openSprints()…),\n' +
      'ORDER BY. A mistake in the query is the API refusal with its line and column (exit 1).',
    positionals: [{ name: 'jql' }],
    options: {
      limit: { type: 'string', value: 'N', help: 'at most N issues (1-1000, default 50)' },
      start: { type: 'string', value: 'N', help: 'skip the first N' },
      order: {
        type: 'string',
        value: 'rank|updated|created|key',
        help: 'the order when the query has no ORDER BY',
        complete: ['rank', 'updated', 'created', 'key'],
      },
    },
    examples: [
      "platform track search 'project = WEB AND status != Done ORDER BY priority DESC'",
      'platform track search "assignee = currentUser() AND resolution IS EMPTY" --json | jq -r ".issues[].key"',
    ],
    run: async (c) => {
      const maxResults = intOption(c, 'limit', 1, 1000);
      const startAt = intOption(c, 'start', 0, 100_000);
      const order = c.str('order');
      if (order !== undefined && !['rank', 'updated', 'created', 'key'].includes(order)) {
        throw new UsageError('--order takes rank, updated, created or key.');
      }
      const { api, orgId } = await org(c);
      const jql = c.args[0] ?? '';
      const body = { jql, maxResults, startAt, order: order as 'rank' | undefined };
      // Long queries go in a body (POST …/search), as the API's own GET/POST pair allows.
      const res =
        jql.length > 1500 ? await api.postIssuesSearch({ orgId, body }) : await api.getIssues({ orgId, ...body });
      if (c.json) return c.print(res, () => '');
      const issues = res.issues as Issue[];
      const names = await namesOf(
        c,
        issues.map((i) => i.assigneeId),
      );
      return c.print(res, () => {
        if (issues.length === 0) return 'No issues match.';
        const more = res.total > res.startAt + issues.length;
        const footer = more
          ? `\n${res.startAt + 1}-${res.startAt + issues.length} of ${res.total} (--start ${res.startAt + issues.length} for more)`
          : '';
        return issueTable(c, issues, names) + footer;
      });
    },
  },
  {
    path: ['track', 'create'],
    summary: 'create an issue in a space',
    positionals: [{ name: 'summary', required: true }],
    options: {
      space: { type: 'string', value: 'KEY', help: "the space's key", required: true, complete: 'space' },
      type: { type: 'string', value: 'TYPE', help: "Task, Bug, Story… (default: the space's)" },
      description: { type: 'string', value: 'TEXT', help: 'its description (Markdown)' },
      'description-file': {
        type: 'string',
        value: 'FILE',
        help: 'its description, from a file (-: stdin)',
        complete: 'file',
      },
      assignee: { type: 'string', value: 'WHO', help: 'an email, a handle or a user id' },
      priority: { type: 'string', value: 'P', help: 'Highest, High, Medium, Low, Lowest' },
      label: { type: 'string', value: 'L', help: 'labels (repeat, or a comma list)', multiple: true },
      parent: { type: 'string', value: 'KEY', help: 'its parent (an epic, or the issue of a subtask)' },
      sprint: { type: 'string', value: 'SPRINT', help: 'a sprint (its name or id) that is not closed' },
    },
    examples: ['platform track create "Checkout fails on Safari" --space WEB --type Bug --priority High'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const labels = c.all('label').flatMap((l) => list(l) ?? []);
      const res = await api.postIssues({
        orgId,
        body: {
          space: c.str('space') as string,
          summary: c.args[0] as string,
          type: c.str('type'),
          description: await bodyOf(c, 'description'),
          assignee: c.str('assignee'),
          priority: c.str('priority'),
          parent: c.str('parent'),
          sprint: c.str('sprint'),
          ...(labels.length ? { labels } : {}),
        },
      });
      return c.print(res, () => `Created ${res.issue.key}: ${res.issue.summary} (${statusName(res.issue.statusId)}).`);
    },
  },
  {
    path: ['track', 'view'],
    summary: 'an issue: its fields, description, the transitions open to you, its last comments',
    positionals: [{ name: 'key', required: true }],
    examples: ['platform track view WEB-12'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.getIssuesByIssueKey({ orgId, issueKey: c.args[0] as string });
      if (c.json) return c.print(res, () => '');
      const i = res.issue as Issue;
      const names = await namesOf(c, [i.assigneeId]);
      return c.print(res, () => {
        const comments = res.comments as {
          authorName?: string;
          authorId?: string;
          body?: string;
          createdAt?: number;
        }[];
        return [
          `${i.key}  ${i.summary}`,
          `status:      ${statusName(i.statusId)}`,
          `type:        ${typeName(i.typeId)}${i.priorityId ? `, priority ${priorityName(i.priorityId)}` : ''}`,
          `assignee:    ${i.assigneeId ? (names.get(i.assigneeId) ?? i.assigneeId) : '-'}`,
          `space:       ${res.space.key} (${res.space.name})`,
          ...(i.labels.length ? [`labels:      ${i.labels.join(', ')}`] : []),
          `updated:     ${when(i.updatedAt)}`,
          ...(res.parent ? [`parent:      ${res.parent.key} ${res.parent.summary}`] : []),
          ...(res.children.length
            ? [`children:    ${res.children.map((k) => `${k.key} (${statusName(k.statusId)})`).join(', ')}`]
            : []),
          `transitions: ${res.transitions.map((t) => (t.name === statusName(t.to) ? t.name : `${t.name} → ${statusName(t.to)}`)).join(', ') || '-'}`,
          ...(res.description ? ['', res.description.trimEnd()] : []),
          ...comments
            .slice(-3)
            .flatMap((k) => [
              '',
              `— ${k.authorName ?? k.authorId ?? '?'}, ${when(k.createdAt)}`,
              (k.body ?? '').trimEnd(),
            ]),
        ].join('\n');
      });
    },
  },
  {
    path: ['track', 'edit'],
    summary: "change an issue's fields (only those given)",
    positionals: [{ name: 'key', required: true }],
    options: {
      summary: { type: 'string', value: 'TEXT', help: 'its summary' },
      description: { type: 'string', value: 'TEXT', help: 'its description (Markdown)' },
      'description-file': {
        type: 'string',
        value: 'FILE',
        help: 'its description, from a file (-: stdin)',
        complete: 'file',
      },
      type: { type: 'string', value: 'TYPE', help: 'Task, Bug, Story…' },
      priority: { type: 'string', value: 'P', help: 'Highest, High, Medium, Low, Lowest (none: clear it)' },
      label: {
        type: 'string',
        value: 'L',
        help: 'its labels (repeat, or a comma list; replaces them)',
        multiple: true,
      },
      due: { type: 'string', value: 'DATE', help: 'its due date, YYYY-MM-DD (none: clear it)' },
      points: { type: 'string', value: 'N', help: 'its story points (none: clear them)' },
      parent: { type: 'string', value: 'KEY', help: 'its parent (none: clear it)' },
    },
    examples: [
      'platform track edit WEB-12 --summary "Checkout fails on Safari 17" --priority Highest',
      'platform track edit WEB-12 --description-file notes.md --label ui,safari',
    ],
    run: async (c) => {
      const clear = (v: string | undefined) => (v === undefined ? undefined : v === 'none' ? null : v);
      const labels = c.all('label').flatMap((l) => list(l) ?? []);
      const points = clear(c.str('points'));
      if (typeof points === 'string' && !/^\d+(\.\d+)?$/.test(points))
        throw new UsageError('--points takes a number (or none).');
      const due = clear(c.str('due'));
      if (typeof due === 'string' && !/^\d{4}-\d\d-\d\d$/.test(due))
        throw new UsageError('--due takes a date: YYYY-MM-DD.');
      const body = Object.fromEntries(
        Object.entries({
          summary: c.str('summary'),
          description: await bodyOf(c, 'description'),
          type: c.str('type'),
          priority: clear(c.str('priority')),
          dueDate: due,
          storyPoints: typeof points === 'string' ? Number(points) : points,
          parent: clear(c.str('parent')),
          labels: c.all('label').length ? labels : undefined,
        }).filter(([, v]) => v !== undefined),
      );
      if (Object.keys(body).length === 0)
        throw new UsageError(
          'Say what to change: --summary, --description, --type, --priority, --label, --due, --points or --parent.',
        );
      const { api, orgId } = await org(c);
      const res = await api.putIssuesByIssueKey({ orgId, issueKey: c.args[0] as string, body });
      return c.print(res, () => `Updated ${res.issue.key}: ${Object.keys(body).join(', ')}.`);
    },
  },
  {
    path: ['track', 'assign'],
    summary: 'assign an issue to someone (an email, a handle or a user id; me; none to unassign)',
    positionals: [
      { name: 'key', required: true },
      { name: 'who', required: true },
    ],
    examples: [
      'platform track assign WEB-12 bob@example.com',
      'platform track assign WEB-12 me',
      'platform track assign WEB-12 none',
    ],
    run: async (c) => {
      const [issueKey, who] = c.args as [string, string];
      const { api, orgId } = await org(c);
      const me = who === 'me' ? (await api.getMe({})).me.userId : undefined;
      if (who === 'me' && !me) throw new UsageError('me names a person: this profile signs in with a key.');
      const assignee = who === 'none' ? null : (me ?? who);
      const res = await api.putIssuesByIssueKey({ orgId, issueKey, body: { assignee } });
      const names = await namesOf(c, [res.issue.assigneeId]);
      const to = res.issue.assigneeId ? (names.get(res.issue.assigneeId) ?? res.issue.assigneeId) : undefined;
      return c.print(res, () => (to ? `Assigned ${res.issue.key} to ${to}.` : `${res.issue.key} is unassigned.`));
    },
  },
  {
    path: ['track', 'transition'],
    aliases: ['move'],
    summary: "move an issue through its workflow (a transition's name or id, or the status to reach)",
    positionals: [
      { name: 'key', required: true },
      { name: 'transition', required: true },
    ],
    options: {
      resolution: {
        type: 'string',
        value: 'R',
        help: "the resolution a closing transition asks for (Done, Won't Do…)",
      },
    },
    examples: [
      'platform track transition WEB-12 "In Progress"',
      'platform track transition WEB-12 Done --resolution Done',
    ],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const [issueKey, transition] = c.args as [string, string];
      const resolution = c.str('resolution');
      const res = await api.postIssuesTransitions({
        orgId,
        issueKey,
        body: { transition, ...(resolution ? { fields: { resolution } } : {}) },
      });
      return c.print(res, () => `${res.issue.key} is now ${statusName(res.issue.statusId)}.`);
    },
  },
  {
    path: ['track', 'rank'],
    summary: 'rank issues (in the order given) right before or after another one',
    positionals: [{ name: 'keys…', required: true }],
    options: {
      before: { type: 'string', value: 'KEY', help: 'rank them right before this issue' },
      after: { type: 'string', value: 'KEY', help: 'rank them right after this issue' },
    },
    examples: ['platform track rank WEB-7 WEB-9 --before WEB-2'],
    run: async (c) => {
      const before = c.str('before');
      const after = c.str('after');
      if ((before === undefined) === (after === undefined)) throw new UsageError('Give one of --before and --after.');
      const { api, orgId } = await org(c);
      const res = await api.postIssuesRank({ orgId, body: { issues: c.args, before, after } });
      return c.print(res, () => `Ranked ${c.args.join(', ')} ${before ? `before ${before}` : `after ${after}`}.`);
    },
  },
  {
    path: ['track', 'import'],
    jsonLast: true,
    summary: "import a Jira CSV export (or this API's JSON export) into a space, showing records done of total",
    details:
      'The API takes 200 records a call, each call resuming where the last one ended (so an interrupted\n' +
      'import run again creates nothing twice); a file over 1 MB is uploaded once first. Catalog values are matched by name\n' +
      '(--create-missing makes missing versions, components and sprints), people by email. Space\n' +
      'administrators only. With --json, the last answer (its keyMap: old keys to new ones).',
    positionals: [{ name: 'file', required: true, complete: 'file' }],
    options: {
      space: { type: 'string', value: 'KEY', help: "the space's key", required: true, complete: 'space' },
      'create-missing': { type: 'boolean', help: 'create versions, components and sprints it names' },
    },
    examples: ['platform track import jira-export.csv --space WEB --create-missing'],
    run: async (c) => {
      const name = c.args[0] as string;
      const { file, format, size } = importFile(c, name);
      const { api, orgId } = await org(c);
      const space = c.str('space') as string;
      // A small file goes in each call's body; a larger one is uploaded once and named by its token.
      let source: { content: string } | { file: string };
      if (size <= INLINE_IMPORT_BYTES) source = { content: readFileSync(file, 'utf8') };
      else {
        const started = await api.postIssuesImportUpload({ orgId, body: { space, format, size } });
        const meter = new TransferMeter(`Uploading ${name}`, size, c.io.stderr, c.io.tty);
        await uploadFile(started.upload.url, file, started.upload.headers['content-type'] ?? 'text/csv', meter);
        const took = meter.end();
        c.io.stderr(`Uploaded ${name} (${bytes(size)} in ${took.toFixed(1)} s).\n`);
        source = { file: started.file };
      }
      let startRow: number | undefined;
      let keyMap: Record<string, string> | undefined;
      let created = 0;
      // Each error or warning once, with the rows (of the file, from 0) it was said of.
      const problems = new Map<string, number[]>();
      const note = (text: string, row: number) => problems.set(text, [...(problems.get(text) ?? []), row]);
      let answer: ImportAnswer;
      do {
        answer = await api.postIssuesImport({
          orgId,
          body: { space, format, ...source, startRow, keyMap, createMissing: c.flag('create-missing') || undefined },
        });
        for (const r of answer.results) {
          if (r.key) created++;
          if (r.error) note(`Not imported: ${r.error}`, r.row);
          for (const w of r.warnings ?? []) note(w, r.row);
        }
        // Records done of total: one line a call (a terminal redraws it in place).
        const line = `Importing ${name}: ${(startRow ?? 0) + answer.processed} of ${answer.total} records`;
        c.io.stderr(c.io.tty ? `\r\x1b[K${line}` : `${line}\n`);
        startRow = answer.nextRow ?? undefined;
        keyMap = answer.keyMap;
      } while (!answer.done && startRow !== undefined);
      if (c.io.tty) c.io.stderr('\r\x1b[K');
      const notes = [...problems]
        .map(([text, rows]) => `\n  ${text} (${rows.length === 1 ? 'row' : 'rows'} ${rows.join(', ')})`)
        .join('');
      c.io.stdout(`Imported ${created} of ${answer.total} records into ${space}.${notes}\n`);
      return 0;
    },
  },
];
