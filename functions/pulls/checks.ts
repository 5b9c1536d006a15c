import * as z from 'zod/mini';
import {
  CHECK_MESSAGES,
  CHECK_STATES,
  checkSummary,
  checksOf,
  listChecks,
  reportCheck,
  requiredView,
  shownCheck,
  updateCheck,
} from '../../shared/domains/repos/checks';
import { requireNumbered } from '../../shared/domains/repos/issues';
import { requiredChecksFor } from '../../shared/domains/repos/protection';
import { PULL_MESSAGES, type PullRecord, reviewedHead } from '../../shared/domains/repos/pulls';
import { requireRepo } from '../../shared/domains/repos/records';
import { repoGit } from '../../shared/domains/repos/tags';
import { numberOf } from '../../shared/domains/repos/thread-schemas';
import { type Caller, callerId } from '../../shared/kernel/auth/caller';
import { notFound } from '../../shared/kernel/ground/errors';
import { queryInt } from '../../shared/kernel/http/query';
import { created, ok, route } from '../../shared/kernel/http/route';
import { oneLine, plainText } from '../../shared/kernel/http/text-checks';
import { INVALID_CURSOR } from '../../shared/kernel/store/cursor';

/** A check's name: one line, 1-100 characters, trimmed (`build` is the preview build's, the platform's alone). */
const CheckName = z.string().check(z.trim(), z.minLength(1), z.maxLength(100), oneLine);
const Summary = z.nullable(z.string().check(z.trim(), z.maxLength(4096), plainText));
const DetailsUrl = z.nullable(
  z.string().check(
    z.maxLength(2048),
    z.refine((v) => /^https?:\/\/[^\s/]+/.test(v) && URL.canParse(v), 'Use an http or https URL.'),
  ),
);
const State = z.enum(CHECK_STATES);
const CommitPath = z.object({ orgId: z.string(), name: z.string(), sha: z.string() });
const CheckPath = z.object({ orgId: z.string(), name: z.string(), sha: z.string(), checkId: z.string() });
const PullPath = z.object({ orgId: z.string(), name: z.string(), number: z.string() });
const ListQuery = z.object({ cursor: z.optional(z.string().check(z.maxLength(2000))), limit: queryInt(1, 100, 50) });

/** `:sha` as a full lowercase commit id: anything else names no commit (404 `Commit not found`). */
function shaOf(raw: string): string {
  if (!/^[0-9a-f]{40}$/.test(raw)) throw notFound(CHECK_MESSAGES.commitNotFound);
  return raw;
}

const COMMIT_404 = ['Repository not found', CHECK_MESSAGES.commitNotFound];

/** The caller as a check's writer: a person by user id, a key by key id. */
const writerOf = (caller: Caller) => ({ createdBy: callerId(caller), createdByKind: caller.kind });

export const checkRoutes = [
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/repos/:name/commits/:sha/checks',
    scope: 'git:write',
    summary:
      'Reports a check run on a commit: one per commit and `name`. New: 201. A name the commit already has runs ' +
      'again with these values (same `checkId`, 200; its times start over). `state` defaults to `queued`; ' +
      '`startedAt` is set on leaving `queued`, `completedAt` on `success`, `failure` or `cancelled`. At most 100 ' +
      'checks per commit. A check belongs to its writer (`source`: the caller that first reported it on the ' +
      "commit): another writer's report is 409. The platform's names (`build`, the preview build's; compared " +
      'trimmed and case-folded) are reserved, and so is a name branch protection binds to a writer: 409.',
    params: CommitPath,
    body: z.object({
      name: CheckName,
      state: z._default(State, 'queued'),
      summary: z.optional(Summary),
      detailsUrl: z.optional(DetailsUrl),
    }),
    errors: {
      404: COMMIT_404,
      409: [
        CHECK_MESSAGES.tooMany,
        CHECK_MESSAGES.changed,
        CHECK_MESSAGES.reserved('build'),
        CHECK_MESSAGES.boundTo('lint', 'API key key_…'),
        CHECK_MESSAGES.otherWriter('lint'),
      ],
    },
    run: async ({ org, params, body, caller }) => {
      const r = await requireRepo(org.orgId, params.name);
      const { check, created: isNew } = await reportCheck(
        org.orgId,
        r.resourceId,
        shaOf(params.sha),
        body.name,
        body.state,
        {
          ...(body.summary !== undefined ? { summary: body.summary || null } : {}),
          ...(body.detailsUrl !== undefined ? { detailsUrl: body.detailsUrl } : {}),
          ...writerOf(caller),
        },
        r.requiredChecks,
      );
      return isNew ? created({ check: shownCheck(check) }) : ok({ check: shownCheck(check) });
    },
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/repos/:name/commits/:sha/checks/:checkId',
    scope: 'git:write',
    summary:
      'Updates a check run: `state` forward only (queued → in_progress → success, failure or cancelled; a ' +
      'completed check stays so: report it again to rerun it), `summary`, `detailsUrl`; with `ifVersion`, only ' +
      "while it is that version. Only the check's writer updates it (409 otherwise). Completing it raises " +
      '`check.completed`.',
    params: CheckPath,
    body: z.object({
      state: z.optional(State),
      summary: z.optional(Summary),
      detailsUrl: z.optional(DetailsUrl),
      ifVersion: z.optional(z.int()),
    }),
    errors: {
      404: [...COMMIT_404, CHECK_MESSAGES.notFound],
      409: [
        CHECK_MESSAGES.transition('lint', 'success', 'queued'),
        CHECK_MESSAGES.changed,
        CHECK_MESSAGES.reserved('build'),
        CHECK_MESSAGES.boundTo('lint', 'API key key_…'),
        CHECK_MESSAGES.otherWriter('lint'),
      ],
    },
    run: async ({ org, params, body, caller }) => {
      const r = await requireRepo(org.orgId, params.name);
      const check = await updateCheck(
        r.resourceId,
        shaOf(params.sha),
        params.checkId,
        { ...body, ...(body.summary !== undefined ? { summary: body.summary || null } : {}) },
        writerOf(caller),
        r.requiredChecks,
      );
      return ok({ check: shownCheck(check) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/commits/:sha/checks',
    scope: 'git:read',
    summary: "A commit's check runs by name (signed cursor, `limit` 1-100, default 50) and their summary.",
    params: CommitPath,
    query: ListQuery,
    errors: { 400: [INVALID_CURSOR], 404: COMMIT_404 },
    run: async ({ org, params, query }) => {
      const r = await requireRepo(org.orgId, params.name);
      const sha = shaOf(params.sha);
      if (!(await (await repoGit()).commitInfo(r.resourceId, sha))) throw notFound(CHECK_MESSAGES.commitNotFound);
      const [page, all] = await Promise.all([
        listChecks(org.orgId, r.resourceId, sha, query),
        checksOf(r.resourceId, sha),
      ]);
      return ok({ commitId: sha, ...page, summary: checkSummary(all) });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/repos/:name/pulls/:number/checks',
    scope: 'git:read',
    summary:
      "The check runs of a pull request's head (the source head while open, the head merged once merged; null " +
      'when closed and its branch is gone), by name with a signed cursor, their summary, the checks branch ' +
      'protection requires of it (`required`) and how each stands on it (`requiredStatus`: the state of the ' +
      "check that counts, `missing` when none does, as when the only one of that name is another writer's).",
    params: PullPath,
    query: ListQuery,
    errors: { 400: [INVALID_CURSOR], 404: ['Repository not found', 'Not found', PULL_MESSAGES.notFound] },
    run: async ({ org, params, query }) => {
      const r = await requireRepo(org.orgId, params.name);
      const pull = await requireNumbered<PullRecord>(
        r.resourceId,
        numberOf(params.number),
        'pull',
        PULL_MESSAGES.notFound,
      );
      const source = await (await repoGit()).resolve(r.resourceId, pull.sourceBranch);
      const sourceHead = source?.kind === 'branch' ? source.commit : null;
      const head = reviewedHead(pull, sourceHead) ?? sourceHead;
      const required = requiredChecksFor(r, pull.targetBranch);
      if (!head)
        return ok({ head, checks: [], cursor: null, summary: checkSummary([]), ...requiredView(required, []) });
      const [page, all] = await Promise.all([
        listChecks(org.orgId, r.resourceId, head, query),
        checksOf(r.resourceId, head),
      ]);
      return ok({ head, ...page, summary: checkSummary(all), ...requiredView(required, all) });
    },
  }),
];
