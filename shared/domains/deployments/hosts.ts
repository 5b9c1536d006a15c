import { appsDomain } from '../projects/hosts';

/**
 * A deployment's own host: `<project slug>-<12 characters of its id>.<apps domain>`, one DNS
 * label (at most 53 characters) that never changes, so a preview link keeps working after the
 * project is renamed. Locally the apps domain is `localhost:<edge port>`: the host opens as it is.
 */
export function deploymentHost(slug: string, deploymentId: string): string {
  const suffix = deploymentId.slice(-12).toLowerCase();
  return `${slug}-${suffix}.${appsDomain()}`;
}
