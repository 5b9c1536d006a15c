import * as z from 'zod/mini';
import type { Actor } from '../../shared/domains/tracker/records';
import type { Caller } from '../../shared/kernel/auth/caller';
import type { Role } from '../../shared/kernel/auth/scopes';
import { oneLine, plainText } from '../../shared/kernel/http/text-checks';
import type { Organization } from '../../shared/kernel/identity/schema';

/** The tracker's view of a request's caller. */
export function actorOf(ctx: { org: Organization; caller: Caller; role: Role | undefined }): Actor {
  const person = ctx.caller.kind === 'user';
  return {
    orgId: ctx.org.orgId,
    id: person ? (ctx.caller as { userId: string }).userId : (ctx.caller as { keyId: string }).keyId,
    person,
    ...(ctx.role ? { role: ctx.role } : {}),
  };
}

export const OrgPath = z.object({ orgId: z.string() });
export const str = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max), plainText);
export const trimmed = (min: number, max: number) =>
  z.string().check(z.trim(), z.minLength(min), z.maxLength(max), oneLine);
export const Ref = str(1, 64);

const Estimate = z.nullable(z.union([z.number().check(z.minimum(0), z.maximum(315_360_000)), str(1, 40)]));
const Day = z.nullable(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date as YYYY-MM-DD')));

/** The fields of issue creation (POST /issues) and of edits (bulk `edit`, PUT /issues/:issueKey). */
export const issueFields = {
  summary: trimmed(1, 255),
  type: str(1, 80),
  description: str(0, 65_536),
  priority: z.nullable(str(1, 80)),
  securityLevel: z.nullable(str(1, 80)),
  resolution: z.nullable(str(1, 80)),
  assignee: z.nullable(str(1, 320)),
  reporter: z.nullable(str(1, 320)),
  labels: z.array(str(1, 64)).check(z.maxLength(30)),
  components: z.array(str(1, 100)).check(z.maxLength(50)),
  fixVersions: z.array(str(1, 100)).check(z.maxLength(50)),
  affectsVersions: z.array(str(1, 100)).check(z.maxLength(50)),
  dueDate: Day,
  startDate: Day,
  storyPoints: z.nullable(z.number().check(z.minimum(0), z.maximum(10_000))),
  originalEstimate: Estimate,
  remainingEstimate: Estimate,
  environment: z.nullable(str(0, 32_768)),
  parent: z.nullable(str(1, 64)),
  sprint: z.nullable(str(1, 100)),
  fields: z.record(str(1, 100), z.unknown()),
  requestType: str(1, 80),
  participants: z.array(str(1, 320)).check(z.maxLength(100)),
};

export const IssueEdit = z.partial(z.object(issueFields));
