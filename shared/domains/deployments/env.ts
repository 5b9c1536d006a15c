import { resolveVars } from '../projects/env';
import { linkedVariables } from '../resources/links';
import type { DeploymentTarget } from './schema';

/** What a deployment of a target gets: its environment, and the values its logs must not show. */
export interface DeploymentEnv {
  /** The build's environment and the server function's (beside the platform's `PLATFORM_*`). */
  vars: Record<string, string>;
  /** The values of the sensitive variables among them (masked in build and runtime logs). */
  sensitive: string[];
}

/**
 * The environment of a deployment of `target`, read when it is launched: the project's
 * variables of that target, and the variables of its linked database and bucket
 * (`DATABASE_TABLE`, `DATABASE_REGION`, `BUCKET_NAME`, `BUCKET_REGION`, shared/domains/resources/links.ts).
 * A linked resource's variable wins over a project variable of the same name: the link says
 * which table or bucket the project uses, and on AWS that is the one its function may reach.
 */
export async function deploymentEnv(
  orgId: string,
  projectId: string,
  target: DeploymentTarget,
): Promise<DeploymentEnv> {
  const [own, linked] = await Promise.all([resolveVars(orgId, projectId, target), linkedVariables(orgId, projectId)]);
  return {
    vars: { ...Object.fromEntries(own.map((v) => [v.key, v.value])), ...linked },
    sensitive: own.filter((v) => v.sensitive).map((v) => v.value),
  };
}
