import type { SprintState } from '../model';
import type {
  ChangedClause,
  Clause,
  CompareClause,
  CompareOp,
  FieldRef,
  HistoryPredicate,
  JqlLocation,
  JqlQuery,
  Operand,
  WasClause,
} from './ast';
import { calendarDate, DATE_FUNCTIONS, dateValue, dayBounds, dayStart, parseIncrement } from './dates';
import { JqlError } from './errors';
import { type Catalog, type FieldDef, fieldKey, type JqlIssue, type NarrowKey, systemField } from './fields';
import { parseJql, tooDeep } from './parse';
import { containsAll, fold, terms, words } from './text';

type Awaitable<T> = T | Promise<T>;

/**
 * What a query's names mean in one organization, for one caller. Resolvers take what the user
 * wrote (a name, an id, a key, an email…) and answer the ids it names; an empty answer for a
 * catalog value is a 400 (`The value "x" does not exist for the field "status".`), except for issue
 * keys, which simply match nothing.
 */
export interface JqlContext {
  /** Epoch ms that `now()`, relative dates and `startOf…()` count from. */
  now: number;
  /** IANA zone for dates written without one and for `startOfDay()`…; default UTC. */
  timeZone?: string;
  /** The caller's person id (`currentUser()`); none matches nothing. */
  currentUser?: string;
  /**
   * Ids named by `value` in `catalog`: statuses, types, priorities, resolutions and levels by name
   * or id; spaces by key, former key, name or id; sprints, versions, components by name or id;
   * people by id, email or display name; issues by key (former keys too) or id.
   */
  resolve(catalog: Catalog, value: string): Awaitable<string[]>;
  /** Person ids in a group (team); undefined when there is no such group. */
  membersOf?(group: string): Awaitable<string[] | undefined>;
  /** Sprint ids by state (`openSprints()` is `active`). */
  sprints?(state: SprintState): Awaitable<string[]>;
  /** The caller's issue history (`issueHistory()`): issue ids, most recently viewed first. */
  issueHistory?(): Awaitable<string[]>;
  /** Version ids by release state (`releasedVersions()`, `unreleasedVersions()`), optionally of one space. */
  versions?(released: boolean, space?: string): Awaitable<string[]>;
  /** The `issue.fields` key of a custom field named `name` (or `cf[10010]`); undefined when none. */
  customField?(name: string): Awaitable<string | undefined>;
  /** ORDER BY value of a catalog entry (a status's position, a person's display name…); default the id. */
  sortValue?(catalog: Catalog, id: string): string | number | undefined;
}

/** Top-level AND constraints: an issue outside one of these sets cannot match. Absent: not constrained. */
export interface JqlNarrow {
  issueIds?: Set<string>;
  spaceIds?: Set<string>;
  /** An issue is inside when its `sprintId` or one of its `closedSprintIds` is in the set. */
  sprintIds?: Set<string>;
  assigneeIds?: Set<string>;
  statusIds?: Set<string>;
}

/** The order the `order` query parameter asks for when the query has no ORDER BY. */
export type DefaultOrder = 'rank' | 'updated' | 'created' | 'key';

export interface CompiledJql {
  narrow: JqlNarrow;
  /** The whole query, in memory. */
  matches(issue: JqlIssue): boolean;
  /** ORDER BY (or the default order), ties by key. */
  compare(a: JqlIssue, b: JqlIssue): number;
  orderBy: { field: string; direction: 'asc' | 'desc' }[];
  /** Canonical names of the fields the query reads (custom fields as `fields.<key>`). */
  fieldsUsed: string[];
}

export interface CompileOptions {
  /** Used when the query has no ORDER BY; default `updated` (most recently updated first). */
  order?: DefaultOrder;
}

/** Whether `issue` lies inside `narrow` (what a read narrowed by it returns). */
export function withinNarrow(narrow: JqlNarrow, issue: JqlIssue): boolean {
  if (narrow.issueIds && !narrow.issueIds.has(issue.issueId)) return false;
  if (narrow.spaceIds && !narrow.spaceIds.has(issue.spaceId)) return false;
  if (narrow.assigneeIds && !(issue.assigneeId !== undefined && narrow.assigneeIds.has(issue.assigneeId))) return false;
  if (narrow.statusIds && !narrow.statusIds.has(issue.statusId)) return false;
  if (narrow.sprintIds) {
    const s = narrow.sprintIds;
    if (!((issue.sprintId !== undefined && s.has(issue.sprintId)) || issue.closedSprintIds.some((id) => s.has(id)))) {
      return false;
    }
  }
  return true;
}

type Test = (issue: JqlIssue) => boolean;
interface Compiled {
  test: Test;
  narrow?: { key: NarrowKey; ids: Set<string> };
}

const at = (loc: JqlLocation | undefined): [number, number] => (loc ? [loc.line, loc.column] : [1, 1]);
const fail = (message: string, loc?: JqlLocation, field?: string): never => {
  throw new JqlError(message, ...at(loc), undefined, field);
};

/** Jira's NOT: pushed down to the operators (`NOT a = b` is `a != b`, which skips empty fields too). */
const NEGATED: Partial<Record<CompareOp, CompareOp>> = {
  '=': '!=',
  '!=': '=',
  in: 'not in',
  'not in': 'in',
  '~': '!~',
  '!~': '~',
  is: 'is not',
  'is not': 'is',
  '>': '<=',
  '<=': '>',
  '<': '>=',
  '>=': '<',
};

export function negate(clause: Clause): Clause {
  switch (clause.type) {
    case 'and':
      return { type: 'or', clauses: clause.clauses.map(negate) };
    case 'or':
      return { type: 'and', clauses: clause.clauses.map(negate) };
    case 'not':
      return pushNots(clause.clause);
    case 'compare':
      return { ...clause, op: NEGATED[clause.op]! };
    case 'was': {
      const ops = { was: 'was not', 'was not': 'was', 'was in': 'was not in', 'was not in': 'was in' } as const;
      return { ...clause, op: ops[clause.op] };
    }
    case 'changed':
      return { type: 'not', clause };
  }
}

/** The query with every NOT moved onto its operators; only `NOT … CHANGED` keeps a NOT node. */
export function pushNots(clause: Clause): Clause {
  switch (clause.type) {
    case 'and':
    case 'or': {
      const clauses = clause.clauses.map(pushNots).flatMap((c) => (c.type === clause.type ? c.clauses : [c]));
      return { type: clause.type, clauses };
    }
    case 'not':
      return clause.clause.type === 'changed' ? clause : negate(clause.clause);
    default:
      return clause;
  }
}

const DAY_FORMATS =
  'use "yyyy-MM-dd", "yyyy/MM/dd", either with " HH:mm", or a period such as "-5d" or "4w 2d" (units w, d, h, m)';

const STATUS_CATEGORIES: Record<string, 'todo' | 'inprogress' | 'done'> = {
  todo: 'todo',
  new: 'todo',
  inprogress: 'inprogress',
  indeterminate: 'inprogress',
  done: 'done',
  complete: 'done',
};

interface Atoms<T> {
  values: T[];
  /** EMPTY was among the operands. */
  empty: boolean;
}

class Compiler {
  readonly used = new Set<string>();
  private readonly zone: string;
  private readonly days = new Map<string, number | undefined>();

  constructor(private readonly ctx: JqlContext) {
    this.zone = ctx.timeZone ?? 'UTC';
  }

  async field(ref: FieldRef): Promise<FieldDef> {
    const system = ref.customId === undefined ? systemField(ref.name) : undefined;
    if (system) {
      this.used.add(system.name);
      return system;
    }
    const key = this.ctx.customField
      ? await this.ctx.customField(ref.name)
      : ref.customId !== undefined
        ? `customfield_${ref.customId}`
        : undefined;
    if (key === undefined) {
      fail(`Field "${ref.name}" does not exist or you do not have permission to view it.`, ref.loc, ref.name);
    }
    this.used.add(`fields.${key}`);
    return { name: ref.name, kind: 'custom', key: key! };
  }

  /** A YYYY-MM-DD day or epoch ms, as epoch ms (days cached: each is a few Intl calls). */
  dateOf(v: number | string | undefined): number | undefined {
    if (typeof v !== 'string') return v;
    if (!this.days.has(v)) this.days.set(v, dayStart(v, this.zone));
    return this.days.get(v);
  }

  async clause(c: Clause): Promise<Compiled> {
    switch (c.type) {
      case 'and': {
        const parts = await this.each(c.clauses);
        const tests = parts.map((p) => p.test);
        return { test: (i) => tests.every((t) => t(i)) };
      }
      case 'or': {
        const tests = (await this.each(c.clauses)).map((p) => p.test);
        return { test: (i) => tests.some((t) => t(i)) };
      }
      case 'not': {
        const inner = (await this.clause(c.clause)).test;
        return { test: (i) => !inner(i) };
      }
      case 'compare':
        return this.compare(c);
      case 'was':
        return { test: await this.was(c) };
      case 'changed':
        return { test: await this.changed(c) };
    }
  }

  async each(clauses: Clause[]): Promise<Compiled[]> {
    const out: Compiled[] = [];
    for (const c of clauses) out.push(await this.clause(c));
    return out;
  }

  // Operands ----------------------------------------------------------------------------------

  private flat(operand: Operand): Operand[] {
    return operand.type === 'list' ? operand.values.flatMap((o) => this.flat(o)) : [operand];
  }

  private unsupportedFunction(name: string, field: string, loc: JqlLocation): never {
    const known =
      ['now', 'currentuser', 'membersof', 'opensprints', 'closedsprints', 'futuresprints', 'issuehistory'].includes(
        name.toLowerCase(),
      ) ||
      ['releasedversions', 'unreleasedversions'].includes(name.toLowerCase()) ||
      DATE_FUNCTIONS[name.toLowerCase()] !== undefined;
    return fail(
      known ? `The function "${name}()" is not supported by the field "${field}".` : `Unknown function "${name}()".`,
      loc,
    );
  }

  /** Catalog ids named by the operands (functions: people, sprints, versions). */
  async ids(def: FieldDef & { kind: 'ids' | 'key' }, operand: Operand): Promise<Atoms<string>> {
    const catalog = def.kind === 'key' ? 'issue' : def.catalog;
    const out: Atoms<string> = { values: [], empty: false };
    for (const o of this.flat(operand)) {
      if (o.type === 'empty') out.empty = true;
      else if (o.type === 'value') {
        const ids = await this.ctx.resolve(catalog, o.value);
        // `resolution = Unresolved` is Jira's way to write EMPTY (unless a resolution has that name).
        if (ids.length === 0 && def.name === 'resolution' && fold(o.value) === 'unresolved') {
          out.empty = true;
          continue;
        }
        if (ids.length === 0 && catalog !== 'issue') {
          fail(`The value "${o.value}" does not exist for the field "${def.name}".`, o.loc, def.name);
        }
        out.values.push(...ids);
      } else if (o.type === 'function') out.values.push(...(await this.idFunction(def.name, catalog, o)));
    }
    return out;
  }

  private async idFunction(field: string, catalog: Catalog, o: Operand & { type: 'function' }): Promise<string[]> {
    const name = o.name.toLowerCase();
    if (catalog === 'person' && name === 'currentuser') return this.ctx.currentUser ? [this.ctx.currentUser] : [];
    if (catalog === 'person' && name === 'membersof' && this.ctx.membersOf) {
      if (o.args.length !== 1) fail('membersOf() takes one group name.', o.loc);
      const members = await this.ctx.membersOf(o.args[0]!);
      if (members === undefined) fail(`The group "${o.args[0]}" does not exist.`, o.loc);
      return members!;
    }
    const states: Record<string, SprintState> = {
      opensprints: 'active',
      closedsprints: 'closed',
      futuresprints: 'future',
    };
    if (catalog === 'sprint' && states[name] && this.ctx.sprints) return this.ctx.sprints(states[name]!);
    if (catalog === 'issue' && name === 'issuehistory' && this.ctx.issueHistory) {
      if (o.args.length > 0) fail('issueHistory() takes no arguments.', o.loc);
      return this.ctx.issueHistory();
    }
    if (catalog === 'version' && (name === 'releasedversions' || name === 'unreleasedversions') && this.ctx.versions) {
      return this.ctx.versions(name === 'releasedversions', o.args[0]);
    }
    return this.unsupportedFunction(o.name, field, o.loc);
  }

  /** Epoch ms named by the operands (dates, periods, date functions). */
  dates(def: FieldDef, operand: Operand): Atoms<number> {
    const out: Atoms<number> = { values: [], empty: false };
    for (const o of this.flat(operand)) {
      if (o.type === 'empty') out.empty = true;
      else if (o.type === 'value') {
        const ms = dateValue(o.value, this.ctx.now, this.zone);
        if (ms === undefined)
          fail(`Date value "${o.value}" for the field "${def.name}" is invalid: ${DAY_FORMATS}.`, o.loc);
        out.values.push(ms!);
      } else if (o.type === 'function') out.values.push(this.dateFunction(def.name, o));
    }
    return out;
  }

  dateFunction(field: string, o: Operand & { type: 'function' }): number {
    const name = o.name.toLowerCase();
    if (name === 'now' && o.args.length === 0) return this.ctx.now;
    const edge = DATE_FUNCTIONS[name];
    if (!edge) return this.unsupportedFunction(o.name, field, o.loc);
    if (o.args.length > 1) fail(`${o.name}() takes at most one increment, such as "-1d".`, o.loc);
    const increment = o.args[0] === undefined ? undefined : parseIncrement(o.args[0]);
    if (o.args[0] !== undefined && !increment) {
      fail(
        `The increment "${o.args[0]}" of ${o.name}() is invalid: use a number and a unit (y, M, w, d, h, m), such as "-1d".`,
        o.loc,
      );
    }
    return calendarDate(edge[0], edge[1], increment, this.ctx.now, this.zone);
  }

  private numbers(def: FieldDef, operand: Operand): Atoms<number> {
    const out: Atoms<number> = { values: [], empty: false };
    for (const o of this.flat(operand)) {
      if (o.type === 'empty') out.empty = true;
      else if (o.type === 'value') {
        const n = o.value.trim() === '' ? Number.NaN : Number(o.value);
        if (!Number.isFinite(n)) fail(`The value "${o.value}" for the field "${def.name}" is not a number.`, o.loc);
        out.values.push(n);
      } else if (o.type === 'function') this.unsupportedFunction(o.name, def.name, o.loc);
    }
    return out;
  }

  private strings(def: FieldDef, operand: Operand): Atoms<string> {
    const out: Atoms<string> = { values: [], empty: false };
    for (const o of this.flat(operand)) {
      if (o.type === 'empty') out.empty = true;
      else if (o.type === 'value') out.values.push(o.value);
      else if (o.type === 'function') this.unsupportedFunction(o.name, def.name, o.loc);
    }
    return out;
  }

  // Clauses -----------------------------------------------------------------------------------

  async compare(c: CompareClause): Promise<Compiled> {
    const def = await this.field(c.field);
    const { op } = c;
    const unsupported = () =>
      fail(`The operator "${op.toUpperCase()}" is not supported by the field "${def.name}".`, c.field.loc, def.name);
    const single = () => {
      if (c.value.type === 'list' || c.value.type === 'empty') {
        fail(`The operator "${op.toUpperCase()}" takes one value.`, c.field.loc, def.name);
      }
    };
    if (op === 'is' || op === 'is not') {
      if (def.kind === 'rank') unsupported();
      const empty = this.emptiness(def);
      return { test: op === 'is' ? empty : (i) => !empty(i) };
    }
    const ordering = op === '>' || op === '>=' || op === '<' || op === '<=';
    const text = op === '~' || op === '!~';
    const positive = op === '=' || op === 'in' || op === '~';

    switch (def.kind) {
      case 'rank':
        return fail('The field "rank" can only be used in ORDER BY.', c.field.loc, def.name);
      case 'ids':
      case 'key': {
        if (text) unsupported();
        if (ordering) {
          if (def.kind === 'key') {
            single();
            return { test: await this.keyOrder(c) };
          }
          if (!def.ranked) unsupported();
          single();
          return { test: await this.rankOrder(def, c) };
        }
        const atoms = await this.ids(def, c.value);
        const set = new Set(atoms.values);
        const get = def.kind === 'key' ? (i: JqlIssue) => [i.issueId] : def.get;
        const hit = (i: JqlIssue) => {
          const have = get(i);
          return have.length === 0 ? atoms.empty : have.some((v) => set.has(v));
        };
        const narrowKey = def.kind === 'key' ? 'issueIds' : def.narrow;
        if (positive) {
          return { test: hit, narrow: narrowKey && !atoms.empty ? { key: narrowKey, ids: set } : undefined };
        }
        return { test: (i) => get(i).length > 0 && !hit(i) };
      }
      case 'category': {
        if (text || ordering) unsupported();
        const atoms = this.strings(def, c.value);
        const wanted = new Set(
          atoms.values.map((v) => {
            const category = STATUS_CATEGORIES[fieldKey(v)];
            if (!category)
              fail(`The value "${v}" does not exist for the field "statusCategory".`, c.field.loc, def.name);
            return category!;
          }),
        );
        return { test: positive ? (i) => wanted.has(i.statusCategory) : (i) => !wanted.has(i.statusCategory) };
      }
      case 'labels': {
        if (text || ordering) unsupported();
        const atoms = this.strings(def, c.value);
        const set = new Set(atoms.values);
        const hit = (i: JqlIssue) => {
          const have = def.get(i);
          return have.length === 0 ? atoms.empty : have.some((v) => set.has(v));
        };
        return { test: positive ? hit : (i) => def.get(i).length > 0 && !hit(i) };
      }
      case 'text': {
        if (!text) unsupported();
        if (c.value.type !== 'value')
          fail(`The operator "${op.toUpperCase()}" takes one text value.`, c.field.loc, def.name);
        const wanted = terms((c.value as Operand & { type: 'value' }).value);
        const texts = (i: JqlIssue) => def.get(i).filter((t): t is string => !!t);
        const hit = (i: JqlIssue) => containsAll(texts(i).map(words), wanted);
        return { test: positive ? hit : (i) => texts(i).length > 0 && !hit(i) };
      }
      case 'date':
      case 'number': {
        if (text) unsupported();
        const atoms = def.kind === 'date' ? this.dates(def, c.value) : this.numbers(def, c.value);
        const get = def.kind === 'date' ? (i: JqlIssue) => this.dateOf(def.get(i)) : def.get;
        if (ordering) {
          single();
          return { test: ordered(get, op, atoms.values[0]!) };
        }
        const set = new Set(atoms.values);
        const hit = (i: JqlIssue) => {
          const v = get(i);
          return v === undefined ? atoms.empty : set.has(v);
        };
        return { test: positive ? hit : (i) => get(i) !== undefined && !hit(i) };
      }
      case 'custom':
        return { test: this.custom(def.key, c) };
    }
  }

  private emptiness(def: FieldDef): Test {
    switch (def.kind) {
      case 'ids':
      case 'labels':
        return (i) => def.get(i).length === 0;
      case 'text':
        return (i) => def.get(i).every((t) => !t);
      case 'date':
      case 'number':
        return (i) => def.get(i) === undefined;
      case 'custom':
        return (i) => customValues(i.fields[def.key]).length === 0;
      default:
        return () => false;
    }
  }

  /** `key > WEB-10`: same space, higher number. */
  private async keyOrder(c: CompareClause): Promise<Test> {
    const v = c.value as Operand;
    if (v.type !== 'value') return fail(`The field "key" is compared with an issue key.`, c.field.loc, 'key');
    const dash = v.value.lastIndexOf('-');
    const number = Number(v.value.slice(dash + 1));
    if (dash <= 0 || !Number.isInteger(number)) {
      return fail(`The issue key "${v.value}" for the field "key" is invalid.`, v.loc, 'key');
    }
    const spaces = new Set(await this.ctx.resolve('space', v.value.slice(0, dash)));
    if (spaces.size === 0) fail(`The value "${v.value}" does not exist for the field "key".`, v.loc, 'key');
    const test = ordered((i) => i.number, c.op, number);
    return (i) => spaces.has(i.spaceId) && test(i);
  }

  /**
   * A ranked catalog's value as a number, the greater the higher: its catalog position (sortValue,
   * highest first) negated. Undefined for an empty field or a value without a position.
   */
  private rank(def: FieldDef & { kind: 'ids' }, id: string | undefined): number | undefined {
    const position = id === undefined ? undefined : this.ctx.sortValue?.(def.catalog, id);
    return typeof position === 'number' ? -position : undefined;
  }

  /** `priority > Low`: a higher priority than Low (an issue without one matches none of these). */
  private async rankOrder(def: FieldDef & { kind: 'ids' }, c: CompareClause): Promise<Test> {
    const [id] = (await this.ids(def, c.value)).values;
    const wanted = this.rank(def, id);
    if (wanted === undefined) {
      const message = `The operator "${c.op.toUpperCase()}" is not supported by the field "${def.name}".`;
      return fail(message, c.field.loc, def.name);
    }
    return ordered((i) => this.rank(def, def.get(i)[0]), c.op, wanted);
  }

  private custom(key: string, c: CompareClause): Test {
    const { op } = c;
    const get = (i: JqlIssue) => customValues(i.fields[key]);
    if (op === '~' || op === '!~') {
      if (c.value.type !== 'value') fail(`The operator "${op.toUpperCase()}" takes one text value.`, c.field.loc);
      const wanted = terms((c.value as Operand & { type: 'value' }).value);
      const hit = (i: JqlIssue) =>
        containsAll(
          get(i).map((v) => words(String(v))),
          wanted,
        );
      return op === '~' ? hit : (i) => get(i).length > 0 && !hit(i);
    }
    if (op === '>' || op === '>=' || op === '<' || op === '<=') {
      if (c.value.type !== 'value') fail(`The operator "${op.toUpperCase()}" takes one value.`, c.field.loc);
      const raw = (c.value as Operand & { type: 'value' }).value;
      const n = Number(raw);
      const byNumber = raw.trim() !== '' && Number.isFinite(n);
      return (i) =>
        get(i).some((v) =>
          typeof v === 'number' && byNumber ? cmp(v, n, op) : typeof v === 'string' && !byNumber && cmp(v, raw, op),
        );
    }
    const atoms = this.strings({ name: c.field.name, kind: 'custom', key }, c.value);
    const wanted = new Set(atoms.values.map(fold));
    const hit = (i: JqlIssue) => {
      const have = get(i);
      return have.length === 0 ? atoms.empty : have.some((v) => wanted.has(fold(String(v))));
    };
    return op === '=' || op === 'in' ? hit : (i) => get(i).length > 0 && !hit(i);
  }

  // History (statusLog, fieldLog) -------------------------------------------------------------

  private async historyField(ref: FieldRef, what: string): Promise<FieldDef & { kind: 'ids' }> {
    const def = await this.field(ref);
    if (def.kind !== 'ids' || !def.history) {
      fail(
        `The ${what} operator is supported by the fields status, assignee, reporter, priority, resolution and ` +
          'fixVersion only (their history is kept).',
        ref.loc,
        def.name,
      );
    }
    return def as FieldDef & { kind: 'ids' };
  }

  /** A predicate's time window [from, to) in epoch ms. */
  private window(p: HistoryPredicate, field: string, fieldLoc: JqlLocation): [number, number] {
    const loc = p.value.type === 'value' || p.value.type === 'function' ? p.value.loc : fieldLoc;
    if (p.kind === 'during') {
      const [from, to] = this.dates({ name: field, kind: 'date', get: () => undefined }, p.value).values;
      return [from!, to! + 1];
    }
    const [t] = this.dates({ name: field, kind: 'date', get: () => undefined }, p.value).values;
    if (t === undefined) return fail(`The ${p.kind.toUpperCase()} predicate takes a date.`, loc, field);
    if (p.kind === 'after') return [t + 1, Number.POSITIVE_INFINITY];
    if (p.kind === 'before') return [Number.NEGATIVE_INFINITY, t];
    return dayBounds(t, this.zone);
  }

  /** The people of a BY predicate (names, emails, ids, currentUser(), membersOf()). */
  private async people(field: string, p: HistoryPredicate): Promise<Set<string>> {
    const def: FieldDef & { kind: 'ids' } = { name: field, kind: 'ids', catalog: 'person', get: () => [] };
    return new Set((await this.ids(def, p.value)).values);
  }

  async was(c: WasClause): Promise<Test> {
    const def = await this.historyField(c.field, 'WAS');
    const atoms = await this.ids(def, c.value);
    const windows: [number, number][] = [];
    const by: Set<string>[] = [];
    for (const p of c.predicates) {
      if (p.kind === 'from' || p.kind === 'to')
        fail(`${p.kind.toUpperCase()} goes with CHANGED, not WAS.`, c.field.loc);
      if (p.kind === 'by') by.push(await this.people(def.name, p));
      else windows.push(this.window(p, def.name, c.field.loc));
    }
    const had = (i: JqlIssue) => {
      const steps = historyOf(def, i);
      return steps.some(
        (step, k) =>
          holds(step.values, atoms) &&
          windows.every(([a, b]) => step.at < b && (steps[k + 1]?.at ?? Number.POSITIVE_INFINITY) > a) &&
          by.every((people) => step.by !== undefined && people.has(step.by)),
      );
    };
    return c.op === 'was' || c.op === 'was in' ? had : (i) => !had(i);
  }

  async changed(c: ChangedClause): Promise<Test> {
    const def = await this.historyField(c.field, 'CHANGED');
    const from: Atoms<string>[] = [];
    const to: Atoms<string>[] = [];
    const by: Set<string>[] = [];
    const windows: [number, number][] = [];
    for (const p of c.predicates) {
      if (p.kind === 'from') from.push(await this.ids(def, p.value));
      else if (p.kind === 'to') to.push(await this.ids(def, p.value));
      else if (p.kind === 'by') by.push(await this.people(def.name, p));
      else windows.push(this.window(p, def.name, c.field.loc));
    }
    return (i) => {
      const steps = historyOf(def, i);
      for (let k = 1; k < steps.length; k++) {
        const was = steps[k - 1]!.values;
        const { values: now, at, by: who } = steps[k]!;
        if (sameValues(was, now)) continue;
        if (
          from.every((a) => holds(was, a)) &&
          to.every((a) => holds(now, a)) &&
          windows.every(([a, b]) => at >= a && at < b) &&
          by.every((people) => who !== undefined && people.has(who))
        ) {
          return true;
        }
      }
      return false;
    };
  }

  // ORDER BY ----------------------------------------------------------------------------------

  async sortKey(
    ref: FieldRef,
  ): Promise<{ name: string; get: (i: JqlIssue) => string | number | undefined; key?: true }> {
    const def = await this.field(ref);
    const sortValue = this.ctx.sortValue;
    const byCatalog = (catalog: Catalog, id: string | undefined) =>
      id === undefined ? undefined : (sortValue?.(catalog, id) ?? id);
    switch (def.kind) {
      case 'key':
        return { name: def.name, get: () => undefined, key: true };
      case 'rank':
        return { name: def.name, get: (i) => i.rank };
      case 'ids':
        if (def.ranked) return { name: def.name, get: (i) => this.rank(def, def.get(i)[0]) };
        return { name: def.name, get: (i) => byCatalog(def.catalog, def.get(i)[0]) };
      case 'category':
        return { name: def.name, get: (i) => ['todo', 'inprogress', 'done'].indexOf(i.statusCategory) };
      case 'labels':
        return { name: def.name, get: (i) => [...def.get(i)].sort()[0] };
      case 'text':
        return {
          name: def.name,
          get: (i) => {
            const t = def.get(i)[0];
            return t ? fold(t) : undefined;
          },
        };
      case 'date':
        return { name: def.name, get: (i) => this.dateOf(def.get(i)) };
      case 'number':
        return { name: def.name, get: def.get };
      case 'custom':
        return {
          name: def.name,
          get: (i) => {
            const v = customValues(i.fields[def.key])[0];
            return typeof v === 'string' ? fold(v) : v;
          },
        };
    }
  }
}

/** One value (set) of a field's history, from `at` until the next step; `by`: who set it, when known. */
interface Step {
  values: string[];
  at: number;
  by?: string;
}

/**
 * A field's history as steps. Status: its log (an empty log: the current status since creation).
 * The other fields: the value before the first logged change since creation, then each change; no
 * change logged: the current value since creation.
 */
function historyOf(def: FieldDef & { kind: 'ids' }, i: JqlIssue): Step[] {
  const withBy = (step: Step, by: string | undefined) => (by === undefined ? step : { ...step, by });
  if (def.history === 'status') {
    if (i.statusLog.length === 0) return [{ values: [i.statusId], at: i.createdAt }];
    return i.statusLog.map(([status, at, by]) => withBy({ values: [status], at }, by));
  }
  const entries = (i.fieldLog ?? []).filter((e) => e[0] === def.history);
  if (entries.length === 0) return [{ values: def.get(i), at: i.createdAt }];
  return [
    { values: entries[0]![1], at: i.createdAt },
    ...entries.map(([, , values, at, by]) => withBy({ values, at }, by)),
  ];
}

/** Whether a value (set) is among the atoms: an empty one when they name EMPTY. */
const holds = (values: string[], atoms: Atoms<string>) =>
  values.length === 0 ? atoms.empty : values.some((v) => atoms.values.includes(v));

const sameValues = (a: string[], b: string[]) => a.length === b.length && a.every((v) => b.includes(v));

/** A custom field's values, flattened (a cascading select gives its parent and child). */
function customValues(v: JqlIssue['fields'][string] | undefined): (string | number)[] {
  if (v === undefined || v === null || v === '') return [];
  if (Array.isArray(v)) return v;
  if (typeof v === 'object') return v.child ? [v.parent, v.child] : [v.parent];
  if (typeof v === 'boolean') return [String(v)];
  return [v];
}

function cmp<T extends string | number>(a: T, b: T, op: CompareOp): boolean {
  if (op === '>') return a > b;
  if (op === '>=') return a >= b;
  if (op === '<') return a < b;
  return a <= b;
}

function ordered(get: (i: JqlIssue) => number | undefined, op: CompareOp, value: number): Test {
  return (i) => {
    const v = get(i);
    return v !== undefined && cmp(v, value, op);
  };
}

/** Issue keys in order: space key, then number (`WEB-9` before `WEB-10`). */
export function compareKeys(a: string, b: string): number {
  const da = a.lastIndexOf('-');
  const db = b.lastIndexOf('-');
  const pa = a.slice(0, da);
  const pb = b.slice(0, db);
  if (pa !== pb) return pa < pb ? -1 : 1;
  const na = Number(a.slice(da + 1));
  const nb = Number(b.slice(db + 1));
  if (na !== nb) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}

const DEFAULT_ORDERS: Record<DefaultOrder, { field: string; direction: 'asc' | 'desc' }> = {
  rank: { field: 'rank', direction: 'asc' },
  updated: { field: 'updated', direction: 'desc' },
  created: { field: 'created', direction: 'desc' },
  key: { field: 'key', direction: 'asc' },
};

/**
 * Compiles a query (its text or its tree) against a context: the narrowing sets, the predicate
 * and the comparator. Throws JqlError (400) for an unknown field, value or function, or an
 * operator the field does not take.
 */
export async function compileJql(
  query: JqlQuery | string,
  ctx: JqlContext,
  options: CompileOptions = {},
): Promise<CompiledJql> {
  try {
    return await compile(typeof query === 'string' ? parseJql(query) : query, ctx, options);
  } catch (e) {
    // A tree too deep for the stack (a long chain of NOTs) is the query's fault: 400, not 500.
    if (e instanceof RangeError) throw tooDeep();
    throw e;
  }
}

async function compile(ast: JqlQuery, ctx: JqlContext, options: CompileOptions): Promise<CompiledJql> {
  const compiler = new Compiler(ctx);
  const where = ast.where ? pushNots(ast.where) : null;
  const narrow: JqlNarrow = {};
  let matches: Test = () => true;
  if (where) {
    const top = where.type === 'and' ? where.clauses : [where];
    const parts = await compiler.each(top);
    for (const part of parts) {
      if (!part.narrow) continue;
      const { key, ids } = part.narrow;
      const before = narrow[key];
      if (!before) narrow[key] = new Set(ids);
      // One value per issue: both sets hold it, so keep their intersection. Sprints are several per
      // issue (current and closed ones): an issue can meet two sprint sets through two sprints, so
      // keep the smaller set, never an intersection that would lose it.
      else if (key !== 'sprintIds') narrow[key] = new Set([...before].filter((id) => ids.has(id)));
      else if (ids.size < before.size) narrow[key] = new Set(ids);
    }
    const tests = parts.map((p) => p.test);
    matches = tests.length === 1 ? tests[0]! : (i) => tests.every((t) => t(i));
  }

  const loc = { line: 1, column: 1, offset: 0 };
  const items =
    ast.orderBy.length > 0
      ? ast.orderBy.map((o) => ({ field: o.field, direction: o.direction ?? 'asc' }))
      : [DEFAULT_ORDERS[options.order ?? 'updated']].map((o) => ({
          field: { type: 'field' as const, name: o.field, loc },
          direction: o.direction,
        }));
  const keys: (Awaited<ReturnType<Compiler['sortKey']>> & { direction: 'asc' | 'desc' })[] = [];
  for (const item of items) keys.push({ ...(await compiler.sortKey(item.field)), direction: item.direction });

  // A sort compares each issue's key many times: split it once per issue.
  const split = new WeakMap<JqlIssue, [string, number]>();
  const keyParts = (i: JqlIssue): [string, number] => {
    let parts = split.get(i);
    if (!parts) {
      const dash = i.key.lastIndexOf('-');
      parts = [i.key.slice(0, dash), Number(i.key.slice(dash + 1))];
      split.set(i, parts);
    }
    return parts;
  };
  const byKeyCached = (a: JqlIssue, b: JqlIssue): number => {
    const [pa, na] = keyParts(a);
    const [pb, nb] = keyParts(b);
    if (pa !== pb) return pa < pb ? -1 : 1;
    if (na !== nb) return na < nb ? -1 : 1;
    return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  };

  const compare = (a: JqlIssue, b: JqlIssue): number => {
    for (const k of keys) {
      const sign = k.direction === 'desc' ? -1 : 1;
      if (k.key) {
        const r = byKeyCached(a, b);
        if (r !== 0) return sign * r;
        continue;
      }
      const va = k.get(a);
      const vb = k.get(b);
      if (va === vb) continue;
      // Empty sorts after every value (so first when descending), as in Jira.
      if (va === undefined) return sign;
      if (vb === undefined) return -sign;
      if (typeof va !== typeof vb) return sign * (typeof va === 'number' ? -1 : 1);
      return sign * (va < vb ? -1 : 1);
    }
    const byKey = byKeyCached(a, b);
    if (byKey !== 0) return byKey;
    return a.issueId < b.issueId ? -1 : a.issueId > b.issueId ? 1 : 0;
  };

  return {
    narrow,
    matches,
    compare,
    orderBy: keys.map((k) => ({ field: k.name, direction: k.direction })),
    fieldsUsed: [...compiler.used],
  };
}
