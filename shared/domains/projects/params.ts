import * as z from 'zod/mini';
import { notFound } from '../../kernel/ground/errors';
import { isId, PROJECT_NOT_FOUND } from './records';

/** The path parameters of every route under `/v1/orgs/:orgId/projects/:projectId`. */
export const ProjectParams = z.object({ orgId: z.string(), projectId: z.string() });

/** The project id of the path, or 404 `Project not found` for one that can't be an id (no read needed). */
export function projectIdOf(params: { projectId: string }): string {
  if (!isId('prj_', params.projectId)) throw notFound(PROJECT_NOT_FOUND);
  return params.projectId;
}
