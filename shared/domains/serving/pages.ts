import type { DeploymentRecord } from '../deployments/schema';

/** The edge's own pages (a deployment not ready, nothing at a host): small HTML, never cached. */
export function pageHtml(title: string, detail: string): string {
  return `<!doctype html><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><p>${detail}</p>\n`;
}

/** A host's name as a page may show it (nothing that could be markup). */
export const shownHost = (host: string) => host.replace(/[<>&"]/g, '');

/** What a deployment that can't serve answers, by its status. */
export const STATUS_PAGES: Partial<Record<NonNullable<DeploymentRecord['status']>, [number, string, string]>> = {
  queued: [503, 'Deployment queued', 'This deployment is waiting for its build. Try again shortly.'],
  building: [503, 'Deployment building', 'This deployment is still building. Try again shortly.'],
  deploying: [503, 'Deployment building', 'This deployment is going live. Try again shortly.'],
  error: [502, 'Deployment failed', 'This deployment failed to build. Its build log says why.'],
  canceled: [410, 'Deployment canceled', 'This deployment was canceled.'],
  expired: [410, 'Deployment expired', 'This deployment has expired. Redeploy it to bring it back.'],
};
