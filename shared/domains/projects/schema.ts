import * as z from 'zod/mini';
import { oneLine } from '../../kernel/http/text-checks';

export const FRAMEWORKS = ['nextjs', 'static', 'node'] as const;
export type Framework = (typeof FRAMEWORKS)[number];

/** Lowercase letters, digits, hyphens; 2-40 characters; starts and ends with a letter or digit. */
export const ProjectSlug = z
  .string()
  .check(
    z.regex(
      /^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$/,
      'Use 2-40 lowercase letters, digits and hyphens, starting and ending with a letter or digit.',
    ),
  );
export const ProjectName = z.string().check(z.trim(), z.minLength(1), z.maxLength(64), oneLine);
export const RootDirectory = z.string().check(z.trim(), z.maxLength(256), oneLine);

/**
 * Spec part A, "Project". `version` is answered too (for guarded edits), and `status` while a
 * delete or a transfer is unfinished (`deleting`, `transferring`): run it again to finish.
 */
export interface Project {
  projectId: string;
  orgId: string;
  name: string;
  slug: string;
  createdBy: string;
  createdAt?: number;
  updatedAt?: number;
  repoId?: string;
  productionBranch?: string;
  framework?: Framework;
  rootDirectory?: string;
  buildCommand?: string;
  installCommand?: string;
  outputDirectory?: string;
  location: string;
  productionDeploymentId?: string;
  version: number;
  status?: 'deleting' | 'transferring';
}

/** The stored record: pk `ORG#<orgId>`, sk `PRJ#<projectId>` (see shared/domains/projects/records.ts). */
export interface ProjectRecord extends Omit<Project, 'status'> {
  pk: string;
  sk: string;
  status: 'active' | 'deleting' | 'transferring';
  /** The newest deployment, kept by `newDeploymentItems` so project lists read it in a batch. */
  latestDeploymentId?: string;
  /** While `transferring`: the organization the project is moving to. */
  transferTo?: string;
  /** The label of its production host, reserved in the host registry (shared/domains/hosts/registry.ts). */
  productionLabel?: string;
}

/** The project as the API answers it. */
export function toProject(record: ProjectRecord): Project {
  const { pk: _pk, sk: _sk, status, latestDeploymentId: _l, transferTo: _t, productionLabel: _h, ...rest } = record;
  return status === 'active' ? rest : { ...rest, status };
}
