import type { $ZodType } from 'zod/v4/core';
import { type FieldIssue, invalidRequest } from '../../ground/errors';
import { notOneLine, TEXT_MESSAGES } from '../../ground/text';
import { parseJsonBody } from '../body';
import type { Route } from '../route';
import type { Middleware, Request, RequestState } from './state';

// The stack validates through each schema's own Standard Schema interface, so zod's code loads
// with the routes that declare schemas (which set its English messages: shared/kernel/http/route.ts), not
// at a function's start.

function issuesOf(
  found: readonly { path?: readonly (PropertyKey | { key: PropertyKey })[]; message: string }[],
  base: string,
): FieldIssue[] {
  return found.map((i) => ({
    path: [base, ...(i.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p))].filter(Boolean).join('.'),
    message: i.message,
  }));
}

export function parse(schema: $ZodType | undefined, value: unknown, base: string, issues: FieldIssue[]): unknown {
  if (!schema) return value;
  const r = schema['~standard'].validate(value);
  if (r instanceof Promise) throw new Error('Route schemas are synchronous.');
  if (!r.issues) return r.value;
  issues.push(...issuesOf(r.issues, base));
  return undefined;
}

/** The parsed and validated params, query and body of the request; issues are collected. */
function parseInput(request: Request, issues: FieldIssue[]): NonNullable<RequestState['input']> {
  const state = request.context.api;
  const route = state.route as Route;
  const { event } = request;
  let body: unknown;
  if (event.body !== undefined && event.body !== '') {
    body = parseJsonBody(event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body);
  }
  if (route.body && body === undefined) body = {};
  const rawQuery = { ...event.queryStringParameters };
  const params = parse(route.params, state.params, '', issues);
  const query = parse(route.query, rawQuery, '', issues);
  const parsedBody = parse(route.body, body, '', issues);
  // Every path parameter and query string is one line; a route's own schema may say so in its words.
  const named = new Set(issues.map((i) => i.path));
  for (const path of [...notOneLine(state.params), ...notOneLine(rawQuery)]) {
    if (!named.has(path)) issues.push({ path, message: TEXT_MESSAGES.oneLine });
  }
  return { params, query, body: parsedBody };
}

/** The input when it is valid, else undefined (its 400 comes later, after authorization, as always). */
export function validInput(request: Request): RequestState['input'] {
  const issues: FieldIssue[] = [];
  try {
    const input = parseInput(request, issues);
    return issues.length === 0 ? input : undefined;
  } catch {
    return undefined;
  }
}

/** JSON body (malformed, too deep or with `__proto__` → 400) and zod validation of params, query and body. */
export const validate = (): Middleware => ({
  before: (request: Request) => {
    const state = request.context.api;
    // Already parsed when a read route started its data call with it.
    if (state.input) return;
    const issues: FieldIssue[] = [];
    const input = parseInput(request, issues);
    if (issues.length > 0) throw invalidRequest(issues);
    state.input = input;
  },
});
