import { readEnv } from '../../kernel/ground/env';
import type { ProjectRecord } from './schema';

/**
 * The domain under which projects get their platform hosts: `APPS_DOMAIN`, or `localhost` on one
 * machine (the local edge serves `<host>.localhost`).
 */
export const appsDomain = (): string => readEnv('APPS_DOMAIN') ?? 'localhost';

/** `<label>.<apps domain>`: the host as links show it (locally with the edge's port). */
export const hostOfLabel = (value: string) => `${value}.${appsDomain()}`;

/**
 * The address a platform host is served at: the local edge (`npm start`, hosts
 * `<name>.localhost:<edge port>`) answers plain HTTP, the hosted platform HTTPS.
 */
export const hostUrl = (host: string): string =>
  /(^|\.)localhost(:\d+)?$/i.test(host) ? `http://${host}` : `https://${host}`;

/**
 * The project's production host on the platform: `<label>.<apps domain>`, present once the
 * project has a production deployment. The label was reserved in the host registry when the
 * project was made or renamed (`<slug>`, else `<slug>-<org slug>`, else a suffix) and is kept on
 * the project, so the host never moves; a project from before the registry has its slug.
 * (Custom domains are listed beside it, in `domains`.)
 */
export function productionHostOf(
  project: Pick<ProjectRecord, 'slug' | 'productionDeploymentId' | 'productionLabel'>,
): string | undefined {
  return project.productionDeploymentId ? `${productionLabelOf(project)}.${appsDomain()}` : undefined;
}

/** The label of the project's production host. */
export const productionLabelOf = (project: Pick<ProjectRecord, 'slug' | 'productionLabel'>) =>
  project.productionLabel ?? project.slug;
