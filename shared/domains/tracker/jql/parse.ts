import type { JqlQuery } from './ast';
import { JqlError, oneOf } from './errors';
import { parse as generatedParse } from './parser';

/** Most a query may hold (the spec's limit on `jql`). */
export const JQL_MAX_LENGTH = 10_000;

interface PeggyExpectation {
  type: 'literal' | 'class' | 'any' | 'end' | 'other';
  text?: string;
  description?: string;
}

interface PeggySyntaxError {
  message: string;
  expected: PeggyExpectation[] | null;
  found: string | null;
  location: { start: { offset: number; line: number; column: number } };
}

const isPeggyError = (e: unknown): e is PeggySyntaxError =>
  typeof e === 'object' && e !== null && 'location' in e && 'expected' in e;

/** Keywords that only say "an operator" (or "a field name") in other words: named once. */
const OPERATOR_WORDS = new Set(['CHANGED', 'WAS', 'IS', 'NOT', 'IN']);
const FIELD_STARTS = new Set(['NOT', '"("']);

function describe(e: PeggyExpectation): string {
  if (e.type === 'literal') return `"${e.text}"`;
  if (e.type === 'end') return 'the end of the query';
  if (e.type === 'any') return 'a character';
  return e.description ?? 'something else';
}

/** What the query holds where parsing stopped: a word, an operator or one character. */
function foundAt(query: string, offset: number): string {
  if (offset >= query.length) return 'the end of the query';
  const stops = ' \t\r\n"\'(),=!<>~[]{}&|^';
  let end = offset;
  while (end < query.length && !stops.includes(query[end]!)) end++;
  if (end === offset) {
    const two = query.slice(offset, offset + 2);
    end = ['!=', '!~', '>=', '<=', '&&', '||'].includes(two) ? offset + 2 : offset + 1;
  }
  const token = query.slice(offset, Math.min(end, offset + 40));
  return token === '\n' || token === '\r' ? 'a line break' : `"${token}"`;
}

/**
 * Parses a JQL query into its tree. Throws JqlError (400) with the line, the column and what was
 * expected, e.g. `Expected a field name but ")" found at line 1, column 11.`
 */
export function parseJql(query: string): JqlQuery {
  if (query.length > JQL_MAX_LENGTH) {
    throw new JqlError(`A query can be up to ${JQL_MAX_LENGTH} characters.`, 1, 1);
  }
  checkNesting(query);
  try {
    return generatedParse(query, {}) as JqlQuery;
  } catch (e) {
    if (e instanceof RangeError) throw tooDeep();
    if (!isPeggyError(e)) throw e;
    const { line, column, offset } = e.location.start;
    if (!e.expected) {
      const text = e.message.endsWith('.') ? e.message.slice(0, -1) : e.message;
      throw new JqlError(`${text} at line ${line}, column ${column}.`, line, column);
    }
    let expected = [...new Set(e.expected.map(describe))];
    if (expected.includes('an operator')) expected = expected.filter((d) => !OPERATOR_WORDS.has(d));
    if (expected.includes('a field name')) expected = expected.filter((d) => !FIELD_STARTS.has(d));
    expected.sort((a, b) => rankOf(a) - rankOf(b) || a.localeCompare(b));
    const message = `Expected ${oneOf(expected)} but ${foundAt(query, offset)} found at line ${line}, column ${column}.`;
    throw new JqlError(message, line, column, expected);
  }
}

/** Most levels of parentheses, and most NOTs in a row, a query may nest (the parser recurses on each). */
export const JQL_MAX_NESTING = 100;

export const tooDeep = () => new JqlError('The query nests too deeply: use fewer parentheses and NOTs.', 1, 1);

const WORD_STOPS = ' \t\r\n\u00a0"\'(),=!<>~[]{}&|^';

/**
 * Parentheses nested deeper than JQL_MAX_NESTING, or more NOTs in a row (across opening
 * parentheses), outside quoted strings: 400 at the first one too many, before the parser recurses.
 */
function checkNesting(query: string): void {
  let depth = 0;
  let nots = 0;
  let line = 1;
  let lineStart = 0;
  const tooMany = (at: number): never => {
    const column = at - lineStart + 1;
    throw new JqlError(
      `The query nests too deeply at line ${line}, column ${column}: at most ${JQL_MAX_NESTING} levels of parentheses and ${JQL_MAX_NESTING} NOTs in a row.`,
      line,
      column,
    );
  };
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    if (c === '\n') {
      line++;
      lineStart = i + 1;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\u00a0') i++;
    else if (c === '"' || c === "'") {
      nots = 0;
      i++;
      while (i < query.length && query[i] !== c) i += query[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '(') {
      if (++depth > JQL_MAX_NESTING) tooMany(i);
      i++;
    } else if (c === ')') {
      depth--;
      nots = 0;
      i++;
    } else if (c === '!' && query[i + 1] !== '=' && query[i + 1] !== '~') {
      if (++nots > JQL_MAX_NESTING) tooMany(i);
      i++;
    } else if (WORD_STOPS.includes(c)) {
      nots = 0;
      i++;
    } else {
      const start = i;
      while (i < query.length && !WORD_STOPS.includes(query[i]!)) i++;
      if (query.slice(start, i).toLowerCase() === 'not') {
        if (++nots > JQL_MAX_NESTING) tooMany(start);
      } else nots = 0;
    }
  }
}

/** Words and descriptions first, literal punctuation next, the end of the query last. */
function rankOf(description: string): number {
  if (description === 'the end of the query') return 2;
  return description.startsWith('"') ? 1 : 0;
}
