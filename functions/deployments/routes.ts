import * as z from 'zod/mini';
import { cancel } from '../../shared/domains/deployments/cancel-deployment';
import { createDeployment } from '../../shared/domains/deployments/create';
import { listDeployments } from '../../shared/domains/deployments/list';
import { buildLogLines, buildLogPage, runtimeLogs, tailRuntimeLogs } from '../../shared/domains/deployments/logs';
import { M } from '../../shared/domains/deployments/messages';
import { PREVIEW_VARIABLES, promote } from '../../shared/domains/deployments/promote';
import { readDeployment } from '../../shared/domains/deployments/read';
import { redeploy } from '../../shared/domains/deployments/redeploy';
import { DEPLOYMENT_STATUSES } from '../../shared/domains/deployments/schema';
import { MAX_ARCHIVE_BYTES, UPLOAD_ID } from '../../shared/domains/deployments/sources';
import { createUpload } from '../../shared/domains/deployments/uploads';
import { deploymentRef } from '../../shared/domains/deployments/view';
import { ProjectParams, projectIdOf } from '../../shared/domains/projects/params';
import { actorId, isId } from '../../shared/domains/projects/records';
import { notFound } from '../../shared/kernel/ground/errors';
import { QueryInt, queryInt } from '../../shared/kernel/http/query';
import { created, ok, route } from '../../shared/kernel/http/route';
import { oneLine } from '../../shared/kernel/http/text-checks';

const DeploymentParams = z.object({ orgId: z.string(), deploymentId: z.string() });
const Target = z.enum(['production', 'preview']);
const Branch = z.string().check(z.trim(), z.minLength(1), z.maxLength(255), oneLine);
const Q = z.optional(z.string().check(z.trim(), z.maxLength(200)));

export const routes = [
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/projects/:projectId/uploads',
    scope: 'deployments:write',
    summary:
      'A presigned PUT link (15 minutes) for one source archive (gzipped tar, at most 250 MB), sent with exactly ' +
      'the returned headers; then create a deployment with its uploadId.',
    params: ProjectParams,
    body: z.object({ size: z.int().check(z.minimum(1), z.maximum(MAX_ARCHIVE_BYTES)) }),
    errors: { 404: [M.projectNotFound] },
    run: async ({ org, params, body }) => created(await createUpload(org.orgId, projectIdOf(params), body.size)),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/projects/:projectId/deployments',
    rateBudget: 'builds',
    scope: 'deployments:write',
    summary:
      'Starts a deployment of a commit of the linked repository (git) or of an uploaded archive (upload). ' +
      'A building or ready deployment of the same commit and target is answered instead (200, existing: true) ' +
      'unless force. Queued deployments of the same branch and target are canceled. Deploying the archive the ' +
      "target's ready deployment was built from (same content), with the same variables, is skipped.",
    params: ProjectParams,
    body: z.object({
      source: z.enum(['git', 'upload']),
      branch: z.optional(Branch),
      commitSha: z.optional(z.string().check(z.regex(/^[0-9a-f]{40}$/, 'Use 40 lowercase hex characters.'))),
      uploadId: z.optional(z.string().check(z.regex(UPLOAD_ID, 'Use the uploadId of an upload.'))),
      target: z.optional(Target),
      force: z._default(z.boolean(), false),
      manifest: z.optional(z.record(z.string(), z.unknown())),
      meta: z.optional(
        z.object({
          branch: z.optional(z.string().check(z.maxLength(255))),
          commit: z.optional(z.string().check(z.regex(/^[0-9a-f]{7,40}$/, 'Use 7-40 lowercase hex characters.'))),
          dirty: z.optional(z.boolean()),
          machine: z.optional(z.string().check(z.maxLength(64))),
        }),
      ),
    }),
    errors: {
      400: [M.gitNeeds, M.uploadNeeds],
      404: [M.projectNotFound, M.notFound, M.commitNotFound],
      409: [M.linkRepo, M.uploadMissing],
      413: [M.tooLarge],
      502: [M.startFailed],
    },
    run: async ({ org, params, body, caller }) => {
      const result = await createDeployment(org.orgId, projectIdOf(params), actorId(caller), body);
      const reply = { deployment: deploymentRef(result.deployment), existing: result.existing };
      return result.existing ? ok(reply) : created(reply);
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/deployments/:deploymentId/build-log',
    scope: 'logs:read',
    summary: 'The build log from the cursor on; poll with the returned cursor until done.',
    params: DeploymentParams,
    query: z.object({ cursor: z.optional(z.string().check(z.maxLength(2048))) }),
    errors: { 400: ['Invalid page cursor. Run the request again.'], 404: [M.deploymentNotFound] },
    run: async ({ org, params, query }) => ok(await buildLogPage(org.orgId, params.deploymentId, query.cursor)),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/deployments/:deploymentId/runtime-logs/tail',
    scope: 'logs:read',
    summary:
      'Server-function log lines since `since` (epoch ms, at most one hour back, default the last minute), oldest ' +
      'first, each with an id. Poll from `next`, re-reading a few seconds and skipping ids already seen.',
    params: DeploymentParams,
    query: z.object({ since: z.optional(QueryInt), q: Q }),
    errors: { 404: [M.deploymentNotFound] },
    run: async ({ org, params, query }) =>
      ok(await tailRuntimeLogs(org.orgId, params.deploymentId, query.since, query.q)),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/deployments',
    scope: 'deployments:read',
    summary: 'Deployments, newest first, filtered by project, target, status and branch; paged with cursor.',
    query: z.object({
      projectId: z.optional(z.string().check(z.minLength(1))),
      target: z.optional(Target),
      status: z.optional(z.enum(DEPLOYMENT_STATUSES)),
      branch: z.optional(Branch),
      cursor: z.optional(z.string().check(z.minLength(1))),
      limit: queryInt(1, 100, 50),
    }),
    errors: {
      400: ['Invalid page cursor. Run the request again.'],
      404: [M.projectNotFound, M.notFound, M.commitNotFound],
    },
    run: async ({ org, query }) => {
      if (query.projectId !== undefined && !isId('prj_', query.projectId)) throw notFound(M.projectNotFound);
      return ok(await listDeployments(org.orgId, query));
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/deployments/:deploymentId',
    scope: 'deployments:read',
    allowed: ['domains:read'],
    summary: "The deployment with its project's summary, production host, domains and server function.",
    params: DeploymentParams,
    errors: { 404: [M.deploymentNotFound, M.projectNotFound, M.notFound, M.commitNotFound] },
    run: async ({ org, params }) => ok(await readDeployment(org.orgId, params.deploymentId)),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/deployments/:deploymentId/logs',
    scope: 'logs:read',
    summary: 'The build output from the first step (up to 5,000 lines).',
    params: DeploymentParams,
    errors: { 404: [M.deploymentNotFound] },
    run: async ({ org, params }) => ok(await buildLogLines(org.orgId, params.deploymentId)),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/deployments/:deploymentId/runtime-logs',
    scope: 'logs:read',
    summary: "The server function's logs of the last hour, newest first; available: false without a server function.",
    params: DeploymentParams,
    query: z.object({ q: Q }),
    errors: { 404: [M.deploymentNotFound] },
    run: async ({ org, params, query }) => ok(await runtimeLogs(org.orgId, params.deploymentId, query.q)),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/deployments/:deploymentId/redeploy',
    rateBudget: 'builds',
    scope: 'deployments:write',
    summary: 'Builds the same source again as a new deployment of the same target.',
    params: DeploymentParams,
    errors: {
      404: [M.deploymentNotFound, M.projectNotFound],
      409: [M.inProgress, M.uploadExpired, M.noCommit, M.linkRepo],
      502: [M.startFailed],
    },
    run: async ({ org, params, caller }) =>
      created({ deployment: deploymentRef(await redeploy(org.orgId, params.deploymentId, actorId(caller))) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/deployments/:deploymentId/promote',
    scope: 'deployments:write',
    summary:
      'Makes a ready deployment the production deployment, without a rebuild: it keeps the variables it was ' +
      "built with. A preview built with variables other than production's is refused (409) unless force " +
      '(beyond the spec; optional body, default false).',
    params: DeploymentParams,
    body: z.object({ force: z._default(z.boolean(), false) }),
    errors: {
      404: [M.deploymentNotFound, M.projectNotFound],
      409: [M.expired, M.notReady, M.alreadyProduction, M.functionRemoved, PREVIEW_VARIABLES],
      502: [M.routingFailed],
    },
    run: async ({ org, params, body }) => ok(await promote(org.orgId, params.deploymentId, { force: body.force })),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/deployments/:deploymentId/cancel',
    scope: 'deployments:write',
    summary:
      'Cancels a deployment still queued, building or deploying: it becomes canceled and its build is stopped; ' +
      "the build's later events never move it again. A pull request preview's build check becomes cancelled.",
    params: DeploymentParams,
    errors: { 404: [M.deploymentNotFound], 409: [M.alreadyFinished, M.alreadyCanceled] },
    run: async ({ org, params, caller }) => ok(await cancel(org.orgId, params.deploymentId, actorId(caller))),
  }),
];
