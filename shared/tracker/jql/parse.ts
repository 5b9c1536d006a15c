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
  try {
    return generatedParse(query, {}) as JqlQuery;
  } catch (e) {
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

/** Words and descriptions first, literal punctuation next, the end of the query last. */
function rankOf(description: string): number {
  if (description === 'the end of the query') return 2;
  return description.startsWith('"') ? 1 : 0;
}
