import * as z from 'zod/mini';
import { oneLine } from '../../kernel/http/text-checks';
import type { Project, ProjectRecord } from './record-schemas';

export { FRAMEWORKS, type Framework } from './frameworks';
/** A project as the API answers it: its record schema (./record-schemas.ts) is the source. */
export type { Project };

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

/** At most this many ignore patterns in a project's preview settings. */
export const MAX_PREVIEW_IGNORES = 50;
export const PREVIEW_MESSAGES = {
  tooManyIgnores: `Use at most ${MAX_PREVIEW_IGNORES} ignore patterns.`,
  ignorePattern: 'Each ignore pattern is 1 to 256 characters on one line, relative to the repository root.',
} as const;

/**
 * `previews` of a PATCH: turn pull request previews off (`enabled: false`) or on, and the globs of
 * repository paths (`*` within a folder, `**` across folders, `?` one character) whose changes alone
 * deploy nothing. Either field may be left out: the other stays as it was.
 */
export const PreviewSettings = z.object({
  enabled: z.optional(z.boolean()),
  ignore: z.optional(
    z
      .array(
        z
          .string()
          .check(
            z.refine(
              (v) => v.length >= 1 && v.length <= 256 && !/[\r\n]/.test(v) && !v.startsWith('/'),
              PREVIEW_MESSAGES.ignorePattern,
            ),
          ),
      )
      .check(z.maxLength(MAX_PREVIEW_IGNORES, PREVIEW_MESSAGES.tooManyIgnores)),
  ),
});

/** A project's preview settings as stored and answered: previews are on unless turned off. */
export type Previews = NonNullable<Project['previews']>;

export const previewsOf = (project: Pick<Project, 'previews'>): Previews => ({
  enabled: project.previews?.enabled ?? true,
  ignore: project.previews?.ignore ?? [],
});

/** The stored record: its schema (./record-schemas.ts) is the source. */
export type { ProjectRecord };

/** The project as the API answers it. */
export function toProject(record: ProjectRecord): Project {
  const { pk: _pk, sk: _sk, status, latestDeploymentId: _l, transferTo: _t, productionLabel: _h, ...rest } = record;
  return status === 'active' ? rest : { ...rest, status };
}
