import { deploymentEnv } from '../../shared/domains/deployments/env';
import { completeDeployment, failDeployment } from '../../shared/domains/deployments/finish';
import { transition } from '../../shared/domains/deployments/records';
import { describeError, log } from '../../shared/kernel/ground/log';
import { artifacts } from '../../shared/ports/artifacts';
import { builds } from '../../shared/ports/builds';
import { type BuildStateChange, buildOfEvent } from '../../shared/ports/builds/events';
import { type FunctionInfo, runtime } from '../../shared/ports/runtime';

export type { BuildStateChange } from '../../shared/ports/builds/events';

const FAILED: Record<string, string> = {
  FAILED: 'The build failed. Its build log says why.',
  FAULT: 'The build service failed. Redeploy to try again.',
  TIMED_OUT: 'The build exceeded its time limit of 15 minutes.',
};

/**
 * The build-events worker, the one state machine of a deployment's build on both targets: it
 * moves the deployment as its build goes, from CodeBuild's events on AWS (EventBridge) and the
 * same events from the local builder (shared/kernel/events/bus.ts). `IN_PROGRESS` → building;
 * `SUCCEEDED` → deploying, then the server function is created from the build's code (with the
 * target's variables) and the deployment goes ready (shared/domains/deployments/finish.ts); `FAILED`,
 * `FAULT`, `TIMED_OUT` → error with the build's own last `Error:` line when it printed one;
 * `STOPPED` (superseded or canceled) → canceled. Events come at least once and may come late:
 * every move is a guarded transition, so a repeat or a late one changes nothing.
 */
export async function handler(event: BuildStateChange): Promise<void> {
  const of = buildOfEvent(event);
  if (!of) {
    log.warn('build event without a deployment', { buildId: event.detail['build-id'] });
    return;
  }
  const { orgId, deploymentId } = of;
  const status = event.detail['build-status'];
  if (status === 'IN_PROGRESS') {
    await transition(orgId, deploymentId, ['queued'], 'building');
    return;
  }
  if (status === 'STOPPED') {
    await transition(orgId, deploymentId, ['queued', 'building'], 'canceled', { reason: 'The build was stopped.' });
    return;
  }
  if (status in FAILED) {
    const buildId = event.detail['build-id'];
    const reason =
      (await builds()
        .failureReason(buildId)
        .catch(() => undefined)) ?? FAILED[status];
    // What the build measured before it failed, when it left its figures.
    const manifest = await artifacts()
      .readManifest(deploymentId)
      .catch(() => undefined);
    await failDeployment(orgId, deploymentId, reason as string, {
      ...(manifest?.metrics ? { buildMetrics: manifest.metrics } : {}),
      ...(of.startedAt ? { buildDurationMs: Math.max(0, Date.now() - of.startedAt) } : {}),
    });
    return;
  }
  if (status === 'SUCCEEDED') await goLive(of);
}

async function goLive(of: NonNullable<ReturnType<typeof buildOfEvent>>): Promise<void> {
  const { orgId, projectId, deploymentId, target } = of;
  const deploying = await transition(orgId, deploymentId, ['queued', 'building'], 'deploying');
  if (!deploying) return;
  const output = artifacts();
  let fn: FunctionInfo | undefined;
  try {
    const manifest = await output.readManifest(deploymentId);
    if (!manifest?.kind) throw new Error('The build left no manifest.');
    if (manifest.kind === 'server') {
      const { vars } = await deploymentEnv(orgId, projectId, target);
      fn = await runtime().deploy({
        deploymentId,
        orgId,
        projectId,
        code: await output.functionCode(deploymentId),
        entry: manifest.entry ?? 'server.js',
        env: { ...vars, PLATFORM_ENV: target, PLATFORM_DEPLOYMENT_ID: deploymentId },
      });
    }
    const ready = await completeDeployment({
      orgId,
      projectId,
      deploymentId,
      target,
      startedAt: of.startedAt ?? deploying.createdAt ?? Date.now(),
      buildMetrics: manifest.metrics ?? {},
      fn,
    });
    // Canceled while it went live: what it would have served goes.
    if (!ready) await removeOutput(deploymentId, fn);
  } catch (err) {
    log.error('deployment failed to go live', { deploymentId, error: describeError(err) });
    await failDeployment(orgId, deploymentId, `The deployment failed to go live: ${(err as Error).message}`);
    await removeOutput(deploymentId, fn).catch(() => undefined);
  }
}

async function removeOutput(deploymentId: string, fn: FunctionInfo | undefined): Promise<void> {
  await artifacts().removeOutput(deploymentId);
  if (fn) await runtime().remove(deploymentId);
}
