import { type FieldIssue, invalidRequest } from '../ground/errors';
import { HttpError } from './http-error';

export const NOT_JSON = 'The request body is not valid JSON.';

/**
 * Deeper than this a JSON body is refused: no route takes one (a DynamoDB item nests at most 32
 * levels, 64 in attribute-value form), and writing such a value out again exhausts the stack.
 */
export const MAX_BODY_DEPTH = 100;
export const TOO_DEEP = `The request body is nested more than ${MAX_BODY_DEPTH} levels deep.`;

/**
 * JSON's `\ud800` escapes can spell a lone surrogate, which is no Unicode text: no backend can
 * store it, and encoding it (a URL, UTF-8) throws. The message is the databases group's own.
 */
export const NOT_TEXT = 'Text must be valid Unicode (no lone surrogates).';
const wellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();

/** The one name JSON allows that JavaScript objects can't keep (see parseJsonBody). */
const PROTO = '__proto__';
export const PROTO_NAME = `${PROTO} can't be used as a name.`;

/**
 * A request body parsed as JSON, refusing up front what JSON allows but the API could not keep.
 * `__proto__`: JSON.parse makes it an own property, but any copy by assignment (zod records,
 * the SDK's marshalling, `obj[key] = …`) drops it without a word, so it is a clear 400 rather
 * than silent loss. `constructor` and `prototype` are ordinary names and pass. Text (values
 * and names) must be valid Unicode.
 */
export function parseJsonBody(text: string): unknown {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, NOT_JSON);
  }
  const issues = check(body);
  if (issues.length > 0) throw invalidRequest(issues);
  return body;
}

interface Node {
  value: unknown;
  key?: string;
  parent?: Node;
  depth: number;
}

const pathOf = (node: Node): string => {
  const keys: string[] = [];
  for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) keys.unshift(n.key);
  return keys.join('.');
};

/** Walks the value without recursion (its depth is the sender's choice). */
function check(body: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (typeof body === 'string' && !wellFormed(body)) issues.push({ path: '', message: NOT_TEXT });
  const stack: Node[] = [{ value: body, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const { value } = node;
    if (typeof value !== 'object' || value === null) continue;
    if (node.depth >= MAX_BODY_DEPTH) throw new HttpError(400, TOO_DEEP);
    const inArray = Array.isArray(value);
    for (const [key, child] of Object.entries(value)) {
      const next: Node = { value: child, key, parent: node, depth: node.depth + 1 };
      if (!inArray && key === PROTO) issues.push({ path: pathOf(next), message: PROTO_NAME });
      else if ((!inArray && !wellFormed(key)) || (typeof child === 'string' && !wellFormed(child))) {
        issues.push({ path: pathOf(next), message: NOT_TEXT });
      }
      if (typeof child === 'object' && child !== null) stack.push(next);
    }
  }
  return issues;
}
