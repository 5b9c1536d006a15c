import type { ProjectRecord } from '../schemas/project';

/**
 * The domain under which projects get their platform hosts: `APPS_DOMAIN`, or `localhost` on one
 * machine (the local edge serves `<host>.localhost`).
 */
export const appsDomain = (): string => process.env.APPS_DOMAIN ?? 'localhost';

/**
 * The project's production host on the platform: `<slug>.<apps domain>`, present once the
 * project has a production deployment. (Custom domains are listed beside it, in `domains`.)
 */
export function productionHostOf(project: Pick<ProjectRecord, 'slug' | 'productionDeploymentId'>): string | undefined {
  return project.productionDeploymentId ? `${project.slug}.${appsDomain()}` : undefined;
}
