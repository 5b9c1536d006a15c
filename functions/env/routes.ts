import * as z from 'zod/mini';
import { listVars } from '../../shared/domains/projects/env-list';
import { NAME_RULE } from '../../shared/domains/projects/env-names';
import { ENV_TARGETS, MAX_BULK_VARS, MAX_KEY_LENGTH, MAX_VALUE_LENGTH } from '../../shared/domains/projects/env-schema';
import {
  deleteOne,
  ENTER_NEW_VALUE,
  ENTER_VALUE,
  NOT_ALL_SAVED,
  putOne,
  upsertMany,
} from '../../shared/domains/projects/env-write';
import { ProjectParams, projectIdOf } from '../../shared/domains/projects/params';
import { PROJECT_DELETING, PROJECT_NOT_FOUND, PROJECT_TRANSFERRING } from '../../shared/domains/projects/records';
import { noContent, ok, route } from '../../shared/kernel/http/route';
import { oneLine, plainText } from '../../shared/kernel/http/text-checks';

const VarParams = z.extend(ProjectParams, { key: z.string().check(z.minLength(1), z.maxLength(MAX_KEY_LENGTH)) });
const Targets = z.array(z.enum(ENV_TARGETS)).check(z.minLength(1));
const Value = z.string().check(z.maxLength(MAX_VALUE_LENGTH), plainText);

export const routes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/projects/:projectId/env',
    scope: 'env:read',
    summary: 'The variables, sorted by key; values of sensitive variables are null, always.',
    params: ProjectParams,
    errors: { 404: [PROJECT_NOT_FOUND] },
    run: async ({ org, params }) => ok({ vars: await listVars(org.orgId, projectIdOf(params)) }),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/projects/:projectId/env',
    scope: 'env:write',
    summary:
      'Creates or replaces up to 200 variables with the same targets and sensitivity; nothing is written ' +
      'unless every name is valid. After a 503, send the same request again.',
    params: ProjectParams,
    body: z.object({
      vars: z
        .array(z.object({ key: z.string().check(z.minLength(1), z.maxLength(MAX_KEY_LENGTH), oneLine), value: Value }))
        .check(z.minLength(1), z.maxLength(MAX_BULK_VARS)),
      targets: Targets,
      sensitive: z._default(z.boolean(), true),
    }),
    errors: {
      400: [`Invalid names: .... ${NAME_RULE}`, 'Reserved by the platform: ....'],
      404: [PROJECT_NOT_FOUND],
      409: [PROJECT_DELETING, PROJECT_TRANSFERRING],
      503: [NOT_ALL_SAVED],
    },
    run: async ({ org, caller, params, body }) => ok(await upsertMany(org.orgId, projectIdOf(params), caller, body)),
  }),
  route({
    method: 'PUT',
    path: '/v1/orgs/:orgId/projects/:projectId/env/:key',
    scope: 'env:write',
    summary: 'Creates or replaces one variable; without value the stored value is kept.',
    params: VarParams,
    body: z.object({
      value: z.optional(Value),
      targets: Targets,
      sensitive: z._default(z.boolean(), true),
    }),
    errors: {
      400: [NAME_RULE, '... is reserved by the platform.', ENTER_VALUE, ENTER_NEW_VALUE],
      404: [PROJECT_NOT_FOUND],
      409: [PROJECT_DELETING, PROJECT_TRANSFERRING],
    },
    run: async ({ org, caller, params, body }) =>
      ok(await putOne(org.orgId, projectIdOf(params), params.key, caller, body)),
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/projects/:projectId/env/:key',
    scope: 'env:write',
    summary: 'Deletes one variable (204 also when it did not exist). Running deployments keep their value.',
    params: VarParams,
    errors: {
      404: [PROJECT_NOT_FOUND],
      409: [PROJECT_DELETING, PROJECT_TRANSFERRING],
    },
    run: async ({ org, params }) => {
      await deleteOne(org.orgId, projectIdOf(params), params.key);
      return noContent();
    },
  }),
];
