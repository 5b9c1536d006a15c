/**
 * JQL completion: what may come where the caret is, as the API's parser reads a query
 * (shared/domains/tracker/jql/jql.peggy and fields.ts): a field, then an operator the field
 * takes (compile.ts decides which), then a value (the catalogs', or what the API lists), then AND,
 * OR, ORDER BY. The test checks the field list against the parser's own.
 */

export type FieldKind = 'ids' | 'ranked' | 'history' | 'key' | 'category' | 'labels' | 'text' | 'date' | 'number';

/** Each system field the parser knows (canonical names), with what its operators and values are. */
export const JQL_FIELDS: { name: string; kind: FieldKind; values?: string }[] = [
  { name: 'assignee', kind: 'history', values: 'person' },
  { name: 'reporter', kind: 'history', values: 'person' },
  { name: 'status', kind: 'history', values: 'status' },
  { name: 'space', kind: 'ids', values: 'space' },
  { name: 'type', kind: 'ids', values: 'type' },
  { name: 'priority', kind: 'ranked', values: 'priority' },
  { name: 'labels', kind: 'labels', values: 'label' },
  { name: 'summary', kind: 'text' },
  { name: 'description', kind: 'text' },
  { name: 'text', kind: 'text' },
  { name: 'comment', kind: 'text' },
  { name: 'key', kind: 'key' },
  { name: 'parent', kind: 'ids', values: 'issue' },
  { name: 'statusCategory', kind: 'category', values: 'category' },
  { name: 'resolution', kind: 'history', values: 'resolution' },
  { name: 'creator', kind: 'ids', values: 'person' },
  { name: 'watcher', kind: 'ids', values: 'person' },
  { name: 'voter', kind: 'ids', values: 'person' },
  { name: 'participants', kind: 'ids', values: 'person' },
  { name: 'component', kind: 'ids', values: 'component' },
  { name: 'fixVersion', kind: 'history', values: 'version' },
  { name: 'affectedVersion', kind: 'ids', values: 'version' },
  { name: 'sprint', kind: 'ids', values: 'sprint' },
  { name: 'level', kind: 'ids' },
  { name: 'requestType', kind: 'ids' },
  { name: 'environment', kind: 'text' },
  { name: 'created', kind: 'date' },
  { name: 'updated', kind: 'date' },
  { name: 'resolved', kind: 'date' },
  { name: 'statusChanged', kind: 'date' },
  { name: 'lastViewed', kind: 'date' },
  { name: 'due', kind: 'date' },
  { name: 'startDate', kind: 'date' },
  { name: 'storyPoints', kind: 'number' },
  { name: 'originalEstimate', kind: 'number' },
  { name: 'remainingEstimate', kind: 'number' },
  { name: 'timeSpent', kind: 'number' },
  { name: 'votes', kind: 'number' },
  { name: 'watchers', kind: 'number' },
  { name: 'attachments', kind: 'number' },
  { name: 'comments', kind: 'number' },
  { name: 'satisfaction', kind: 'number' },
];
/** `rank` is for ORDER BY only. */
export const ORDER_FIELDS = [...JQL_FIELDS.map((f) => f.name), 'rank'];

const IN_OPS = ['IN', 'NOT IN'];
const EQ_OPS = ['=', '!='];
const EMPTY_OPS = ['IS', 'IS NOT'];
const ORDER_OPS = ['>', '>=', '<', '<='];
const WAS_OPS = ['WAS', 'WAS NOT', 'WAS IN', 'WAS NOT IN', 'CHANGED'];

/** The operators compile.ts accepts for each kind of field. */
export const OPERATORS: Record<FieldKind, string[]> = {
  ids: [...EQ_OPS, ...IN_OPS, ...EMPTY_OPS],
  history: [...EQ_OPS, ...IN_OPS, ...EMPTY_OPS, ...WAS_OPS],
  ranked: [...EQ_OPS, ...ORDER_OPS, ...IN_OPS, ...EMPTY_OPS, ...WAS_OPS],
  key: [...EQ_OPS, ...IN_OPS, ...ORDER_OPS],
  category: [...EQ_OPS, ...IN_OPS],
  labels: [...EQ_OPS, ...IN_OPS, ...EMPTY_OPS],
  text: ['~', '!~', ...EMPTY_OPS],
  date: [...EQ_OPS, ...ORDER_OPS, ...IN_OPS, ...EMPTY_OPS],
  number: [...EQ_OPS, ...ORDER_OPS, ...IN_OPS, ...EMPTY_OPS],
};

const RESERVED = new Set(
  'and or not in is was changed empty null order by asc desc after before on during from to'.split(' '),
);

/** A value as JQL needs it written: bare when it is one plain word, else in double quotes. */
export function quote(value: string): string {
  if (/^[\p{L}\p{N}_.@+-]+$/u.test(value) && !RESERVED.has(value.toLowerCase()) && !/^[-+]/.test(value)) return value;
  if (/\(\)$/.test(value)) return value;
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export interface Suggestion {
  /** What the list shows. */
  label: string;
  /** What replaces the word at the caret. */
  insert: string;
  /** A word on what it is (field, operator, status…). */
  kind: string;
}

export interface Completion {
  /** The part of the text the chosen suggestion replaces: [from, to). */
  from: number;
  to: number;
  items: Suggestion[];
}

type Token = { type: 'word' | 'string' | 'op' | 'punct'; text: string; start: number; end: number };

const OPERATOR_CHARS = /^(!=|!~|>=|<=|=|>|<|~)/;

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out.push({
        type: 'string',
        text: text.slice(i, Math.min(j + 1, text.length)),
        start: i,
        end: Math.min(j + 1, text.length),
      });
      i = j + 1;
      continue;
    }
    const op = OPERATOR_CHARS.exec(text.slice(i));
    if (op) {
      out.push({ type: 'op', text: op[0], start: i, end: i + op[0].length });
      i += op[0].length;
      continue;
    }
    if (c === '(' || c === ')' || c === ',') {
      out.push({ type: 'punct', text: c, start: i, end: i + 1 });
      i++;
      continue;
    }
    let j = i;
    // A function call keeps its parentheses with its name: `currentUser()`.
    while (j < text.length && !/[\s"'(),=!<>~]/.test(text[j] as string)) j++;
    if (text[j] === '(' && text[j + 1] === ')') j += 2;
    if (j === i) j = i + 1;
    out.push({ type: 'word', text: text.slice(i, j), start: i, end: j });
    i = j;
  }
  return out;
}

type State =
  | { at: 'field' }
  | { at: 'operator'; field: string }
  | { at: 'value'; field: string; list: boolean }
  | { at: 'is'; field: string }
  | { at: 'afterValue'; depth: number; listOpen?: string; value?: { field: string; start: number; inList: boolean } }
  | { at: 'orderField' }
  | { at: 'orderDirection' }
  | { at: 'none' };

const lower = (t: Token | undefined) => t?.text.toLowerCase();

/** Where the tokens before the caret leave the query. */
function stateAfter(tokens: Token[]): State {
  let state: State = { at: 'field' };
  let depth = 0;
  let listField: string | undefined;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    const w = lower(t);
    switch (state.at) {
      case 'field':
        if (w === 'not' || w === '!') state = { at: 'field' };
        else if (t.text === '(') depth++;
        else if (w === 'order' && lower(tokens[k + 1]) === 'by') {
          k++;
          state = { at: 'orderField' };
        } else if (t.type === 'word' || t.type === 'string')
          state = { at: 'operator', field: t.text.replace(/^["']|["']$/g, '') };
        else state = { at: 'none' };
        break;
      case 'operator': {
        const field: string = state.field;
        if (t.type === 'op') state = { at: 'value', field, list: false };
        else if (w === 'is') {
          if (lower(tokens[k + 1]) === 'not') k++;
          state = { at: 'is', field };
        } else if (w === 'not' && lower(tokens[k + 1]) === 'in') {
          k++;
          state = { at: 'value', field, list: true };
        } else if (w === 'in') state = { at: 'value', field, list: true };
        else if (w === 'was') {
          if (lower(tokens[k + 1]) === 'not') k++;
          if (lower(tokens[k + 1]) === 'in') {
            k++;
            state = { at: 'value', field, list: true };
          } else state = { at: 'value', field, list: false };
        } else if (w === 'changed') state = { at: 'afterValue', depth };
        else state = { at: 'none' };
        break;
      }
      case 'is':
        state = w === 'empty' || w === 'null' ? { at: 'afterValue', depth } : { at: 'none' };
        break;
      case 'value':
        if (state.list) {
          if (t.text === '(') {
            listField = state.field;
            state = { at: 'value', field: state.field, list: false };
          } else if (t.type === 'word')
            state = { at: 'afterValue', depth }; // a function: membersOf(x)
          else state = { at: 'none' };
        } else if (t.type === 'word' || t.type === 'string') {
          const value: { field: string; start: number; inList: boolean } | undefined =
            t.type === 'word'
              ? { field: state.field as string, start: t.start, inList: Boolean(listField) }
              : undefined;
          state = { at: 'afterValue', depth, listOpen: listField, value };
        } else state = { at: 'none' };
        break;
      case 'afterValue':
        if (state.listOpen && t.text === ',') state = { at: 'value', field: state.listOpen, list: false };
        else if (state.listOpen && t.text === ')') {
          listField = undefined;
          state = { at: 'afterValue', depth };
        } else if (w === 'and' || w === 'or' || w === '&&' || w === '||') state = { at: 'field' };
        else if (t.text === ')' && depth > 0) {
          depth--;
          state = { at: 'afterValue', depth };
        } else if (w === 'order' && lower(tokens[k + 1]) === 'by') {
          k++;
          state = { at: 'orderField' };
        } else if (['after', 'before', 'on', 'by', 'from', 'to'].includes(w ?? '')) {
          state = { at: 'value', field: 'predicate', list: false };
        } else state = { at: 'none' };
        break;
      case 'orderField':
        state = t.type === 'word' || t.type === 'string' ? { at: 'orderDirection' } : { at: 'none' };
        break;
      case 'orderDirection':
        if (t.text === ',') state = { at: 'orderField' };
        else if (w === 'asc' || w === 'desc') state = { at: 'orderDirection' };
        else state = { at: 'none' };
        break;
      case 'none':
        return state;
    }
  }
  if (state.at === 'afterValue') state = { ...state, depth };
  return state;
}

/** The values offered for a field: each catalog's names, the API's lists (filled in by the page). */
export type ValueSource = (catalog: string) => { value: string; kind: string }[];

const fieldOf = (name: string) => {
  const n = name.toLowerCase().replace(/[\s_-]/g, '');
  return JQL_FIELDS.find((f) => f.name.toLowerCase() === n) ?? ALIASES[n];
};
const ALIASES: Record<string, (typeof JQL_FIELDS)[number]> = Object.fromEntries(
  (
    [
      ['project', 'space'],
      ['issuetype', 'type'],
      ['issuekey', 'key'],
      ['fixversions', 'fixVersion'],
      ['components', 'component'],
      ['label', 'labels'],
      ['duedate', 'due'],
      ['epiclink', 'parent'],
      ['sprints', 'sprint'],
    ] as const
  ).map(([alias, name]) => [alias, JQL_FIELDS.find((f) => f.name === name) as (typeof JQL_FIELDS)[number]]),
);

const DATE_VALUES = ['-1d', '-7d', '-4w', 'now()', 'startOfDay()', 'startOfWeek()', 'startOfMonth()', 'endOfDay()'];

function valuesFor(field: string, source: ValueSource, inList: boolean): Suggestion[] {
  const def = fieldOf(field);
  const items: Suggestion[] = [];
  const add = (value: string, kind: string) => items.push({ label: value, insert: quote(value), kind });
  if (field === 'predicate') return DATE_VALUES.map((v) => ({ label: v, insert: v, kind: 'date' }));
  if (!def) return [];
  if (def.values) for (const v of source(def.values)) add(v.value, v.kind);
  if (def.values === 'person') add('currentUser()', 'function');
  if (def.values === 'sprint')
    for (const f of ['openSprints()', 'futureSprints()', 'closedSprints()']) add(f, 'function');
  if (def.values === 'version') for (const f of ['unreleasedVersions()', 'releasedVersions()']) add(f, 'function');
  if (def.values === 'issue') add('issueHistory()', 'function');
  if (def.kind === 'date') for (const v of DATE_VALUES) items.push({ label: v, insert: v, kind: 'date' });
  if (!inList && def.kind !== 'text' && def.kind !== 'category') add('EMPTY', 'keyword');
  return items;
}

const keyword = (label: string, insert = label): Suggestion => ({ label, insert, kind: 'keyword' });

/** What may be typed at `caret` in `text`. */
export function complete(text: string, caret: number, source: ValueSource): Completion {
  const before = text.slice(0, caret);
  const tokens = tokenize(before);
  // The word being typed (no space after it yet) is what a suggestion replaces.
  const last = tokens[tokens.length - 1];
  const typing =
    last &&
    last.end === before.length &&
    (last.type === 'word' || (last.type === 'string' && !/["']$/.test(last.text.slice(1))))
      ? last
      : undefined;
  const done = typing ? tokens.slice(0, -1) : tokens;
  const state = stateAfter(done);
  const from = typing ? typing.start : caret;
  const prefix = (typing?.text ?? '').replace(/^["']/, '').toLowerCase();
  let items: Suggestion[] = [];
  switch (state.at) {
    case 'field':
      items = [
        ...JQL_FIELDS.map((f) => ({ label: f.name, insert: f.name, kind: 'field' })),
        ...(done.length === 0 ? [keyword('ORDER BY')] : []),
        keyword('NOT'),
      ];
      break;
    case 'operator': {
      const def = fieldOf(state.field);
      const ops = def ? OPERATORS[def.kind] : [...EQ_OPS, ...IN_OPS, ...EMPTY_OPS, '~'];
      items = ops.map((op) => ({ label: op, insert: op.endsWith('IN') ? `${op} (` : op, kind: 'operator' }));
      break;
    }
    case 'is':
      items = [keyword('EMPTY'), keyword('NOT EMPTY')];
      if (done.length && lower(done[done.length - 1]) === 'not') items = [keyword('EMPTY')];
      break;
    case 'value':
      items = state.list ? [keyword('(')] : valuesFor(state.field, source, false);
      break;
    case 'afterValue':
      items = state.listOpen
        ? [keyword(','), keyword(')')]
        : [keyword('AND'), keyword('OR'), ...(state.depth > 0 ? [keyword(')')] : []), keyword('ORDER BY')];
      break;
    case 'orderField':
      items = ORDER_FIELDS.map((f) => ({ label: f, insert: f, kind: 'field' }));
      break;
    case 'orderDirection':
      items = [keyword('ASC'), keyword('DESC'), keyword(',')];
      break;
    case 'none':
      items = [];
  }
  // In a list, values come after `(` and `,`.
  if (
    state.at === 'value' &&
    !state.list &&
    done.length &&
    (done[done.length - 1]?.text === '(' || done[done.length - 1]?.text === ',')
  ) {
    items = valuesFor(state.field, source, true);
  }
  // A value of several words typed bare (`status = in pro`): the values it starts, from its first word.
  if (state.at === 'afterValue' && state.value && typing?.type === 'word') {
    const typed = before.slice(state.value.start).toLowerCase();
    const values = valuesFor(state.value.field, source, state.value.inList).filter((v) =>
      v.label.toLowerCase().startsWith(typed),
    );
    if (values.length) return { from: state.value.start, to: caret, items: values.slice(0, 50) };
  }
  const matching = prefix
    ? items.filter((s) => s.label.toLowerCase().startsWith(prefix) || s.label.toLowerCase().includes(` ${prefix}`))
    : items;
  // A word typed in full (and nothing longer): nothing left to offer.
  const only = matching.length === 1 && matching[0]?.label.toLowerCase() === prefix;
  return { from, to: caret, items: only ? [] : matching.slice(0, 50) };
}

/** The text with a suggestion put in place and the caret after it (and a space, where one follows). */
export function apply(text: string, c: Completion, s: Suggestion): { text: string; caret: number } {
  const rest = text.slice(c.to).replace(/^[^\s(),]*/, '');
  const tight = s.insert.endsWith('(') || s.insert === '(';
  const insert = tight ? s.insert : `${s.insert} `;
  const next = text.slice(0, c.from) + insert + rest.replace(/^\s+/, '');
  return { text: next, caret: c.from + insert.length };
}

/** The query with its ORDER BY replaced (a column's sort). */
export function withOrder(jql: string, field: string, direction: 'ASC' | 'DESC'): string {
  const tokens = tokenize(jql);
  const at = tokens.findIndex((t, i) => lower(t) === 'order' && lower(tokens[i + 1]) === 'by');
  const where = (at >= 0 ? jql.slice(0, (tokens[at] as Token).start) : jql).trim();
  return `${where ? `${where} ` : ''}ORDER BY ${field} ${direction}`;
}

/** The field and direction of the query's first ORDER BY item, if it has one. */
export function orderOf(jql: string): { field: string; direction: 'ASC' | 'DESC' } | undefined {
  const tokens = tokenize(jql);
  const at = tokens.findIndex((t, i) => lower(t) === 'order' && lower(tokens[i + 1]) === 'by');
  const field = tokens[at + 2];
  if (at < 0 || !field) return undefined;
  return { field: field.text, direction: lower(tokens[at + 3]) === 'desc' ? 'DESC' : 'ASC' };
}
