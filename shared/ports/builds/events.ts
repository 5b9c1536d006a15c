import type { DeploymentTarget } from '../../domains/deployments/schema';

/** A build's status in CodeBuild's words. */
export type BuildStatus = 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED' | 'FAULT' | 'STOPPED' | 'TIMED_OUT';

/**
 * EventBridge's "CodeBuild Build State Change" event, the parts the platform reads: the status,
 * the build's id, when it started and the job's environment variables (which deployment it is).
 * CodeBuild sends it on AWS; the local builder publishes the same (shared/kernel/events/bus.ts).
 */
export interface BuildStateChange {
  source?: string;
  'detail-type'?: string;
  detail: {
    'build-status': BuildStatus | string;
    'build-id': string;
    'project-name'?: string;
    'additional-information'?: {
      'build-start-time'?: string;
      environment?: { 'environment-variables'?: { name: string; value: string; type?: string }[] };
    };
  };
}

export const BUILD_EVENT_SOURCE = 'aws.codebuild';
export const BUILD_EVENT_TYPE = 'CodeBuild Build State Change';

/** The deployment a build serves, as its environment variables name it (both targets). */
export interface BuildOf {
  deploymentId: string;
  orgId: string;
  projectId: string;
  target: DeploymentTarget;
}

/** The variables that name the deployment, set on every build (shared/ports/builds/aws.ts `start`). */
export const deploymentVars = (of: BuildOf) => ({
  DEPLOYMENT_ID: of.deploymentId,
  ORG_ID: of.orgId,
  PROJECT_ID: of.projectId,
  DEPLOYMENT_TARGET: of.target,
});

/** The event CodeBuild would send for the build `buildId` of `of` reaching `status`. */
export function buildStateChange(
  of: BuildOf,
  buildId: string,
  status: BuildStatus,
  startedAt: number,
): BuildStateChange & { source: string; 'detail-type': string } {
  return {
    source: BUILD_EVENT_SOURCE,
    'detail-type': BUILD_EVENT_TYPE,
    detail: {
      'build-status': status,
      'build-id': buildId,
      'project-name': 'local',
      'additional-information': {
        'build-start-time': new Date(startedAt).toISOString(),
        environment: {
          'environment-variables': Object.entries(deploymentVars(of)).map(([name, value]) => ({
            name,
            value,
            type: 'PLAINTEXT',
          })),
        },
      },
    },
  };
}

/** The deployment an event is about, or undefined when its variables don't name one. */
export function buildOfEvent(event: BuildStateChange): (BuildOf & { startedAt?: number }) | undefined {
  const vars = Object.fromEntries(
    (event.detail['additional-information']?.environment?.['environment-variables'] ?? []).map((v) => [
      v.name,
      v.value,
    ]),
  );
  const { ORG_ID: orgId, DEPLOYMENT_ID: deploymentId, PROJECT_ID: projectId, DEPLOYMENT_TARGET: target } = vars;
  if (!orgId || !deploymentId || !projectId || !target) return undefined;
  const started = Date.parse(event.detail['additional-information']?.['build-start-time'] ?? '');
  return {
    orgId,
    deploymentId,
    projectId,
    target: target as DeploymentTarget,
    startedAt: Number.isFinite(started) ? started : undefined,
  };
}
