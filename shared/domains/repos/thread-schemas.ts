import * as z from 'zod/mini';
import { notFound } from '../../kernel/ground/errors';
import { queryInt } from '../../kernel/http/query';

/**
 * What the issue and pull request routes share (repo-issues and pulls): their path parameters,
 * the `:number` rule, list queries, labels, assignees and comment bodies.
 */
export const RepoPath = z.object({ orgId: z.string(), name: z.string() });
export const NumberPath = z.object({ orgId: z.string(), name: z.string(), number: z.string() });

/** `:number` as the positive integer it must be: anything else names nothing (404 `Not found`). */
export function numberOf(raw: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(raw)) throw notFound();
  return Number(raw);
}

export const Labels = z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(50))).check(z.maxLength(10));
export const Assignees = z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(10));
export const CommentBody = z.object({ body: z.string().check(z.trim(), z.minLength(1), z.maxLength(65_536)) });

/** A list's query: `states` (the first is the default), a signed cursor, filters, and a page size. */
export const listQuery = <S extends readonly [string, ...string[]]>(states: S) =>
  z.object({
    state: z._default(z.enum(states), states[0]),
    cursor: z.optional(z.string()),
    label: z.optional(z.string().check(z.maxLength(50))),
    author: z.optional(z.string().check(z.maxLength(64))),
    assignee: z.optional(z.string().check(z.maxLength(64))),
    limit: queryInt(1, 100, 30),
  });
