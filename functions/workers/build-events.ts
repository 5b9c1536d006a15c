import { lastErrorLine } from '../../shared/builds/aws';
import { deploymentEnv } from '../../shared/deployments/env';
import { completeDeployment, failDeployment } from '../../shared/deployments/finish';
import { transition } from '../../shared/deployments/records';
import { artifactsBucket } from '../../shared/deployments/sources';
import { describeError, log } from '../../shared/ground/log';
import { runtime } from '../../shared/runtime';
import type { BuildMetrics, DeploymentTarget } from '../../shared/schemas/deployment';
import { storage } from '../../shared/storage';

/** EventBridge's "CodeBuild Build State Change" event, the parts read here. */
export interface BuildStateChange {
  'detail-type'?: string;
  detail: {
    'build-status': 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED' | 'FAULT' | 'STOPPED' | 'TIMED_OUT' | string;
    'build-id': string;
    'project-name'?: string;
    'additional-information'?: {
      'build-start-time'?: string;
      environment?: { 'environment-variables'?: { name: string; value: string }[] };
    };
  };
}

interface Manifest {
  kind: 'static' | 'server';
  entry?: string;
  metrics?: BuildMetrics;
}

const FAILED: Record<string, string> = {
  FAILED: 'The build failed. Its build log says why.',
  FAULT: 'The build service failed. Redeploy to try again.',
  TIMED_OUT: 'The build exceeded its time limit of 15 minutes.',
};

async function readManifest(deploymentId: string): Promise<Manifest> {
  const url = await storage.presignGet({ name: artifactsBucket() }, `artifacts/${deploymentId}/manifest.json`, {
    expiresIn: 60,
  });
  const res = await fetch(url);
  if (!res.ok) throw new Error(`The build left no manifest (HTTP ${res.status}).`);
  return (await res.json()) as Manifest;
}

/**
 * The build-events worker: moves a deployment as its CodeBuild build goes. `IN_PROGRESS` →
 * building; `SUCCEEDED` → deploying, then the server function is created from the build's zip
 * (with the target's variables) and the deployment goes ready (shared/deployments/finish.ts);
 * `FAILED`, `FAULT`, `TIMED_OUT` → error with the build's own last `Error:` line when it printed
 * one; `STOPPED` (superseded) → canceled. Events come at least once and may come late:
 * every move is a guarded transition, so a repeat or a late one changes nothing.
 */
export async function handler(event: BuildStateChange): Promise<void> {
  const vars = Object.fromEntries(
    (event.detail['additional-information']?.environment?.['environment-variables'] ?? []).map((v) => [
      v.name,
      v.value,
    ]),
  );
  const orgId = vars.ORG_ID;
  const deploymentId = vars.DEPLOYMENT_ID;
  const projectId = vars.PROJECT_ID;
  const target = vars.DEPLOYMENT_TARGET as DeploymentTarget | undefined;
  if (!orgId || !deploymentId || !projectId || !target) {
    log.warn('build event without a deployment', { buildId: event.detail['build-id'] });
    return;
  }
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
    const reason = (await lastErrorLine(event.detail['build-id']).catch(() => undefined)) ?? FAILED[status];
    await failDeployment(orgId, deploymentId, reason as string);
    return;
  }
  if (status !== 'SUCCEEDED') return;

  const deploying = await transition(orgId, deploymentId, ['queued', 'building'], 'deploying');
  if (!deploying) return;
  const started = Date.parse(event.detail['additional-information']?.['build-start-time'] ?? '');
  try {
    const manifest = await readManifest(deploymentId);
    let fn: Awaited<ReturnType<Awaited<ReturnType<typeof runtime>>['deploy']>> | undefined;
    if (manifest.kind === 'server') {
      const { vars } = await deploymentEnv(orgId, projectId, target);
      fn = await (await runtime()).deploy({
        deploymentId,
        orgId,
        projectId,
        code: { bucket: artifactsBucket(), key: `artifacts/${deploymentId}/function.zip` },
        entry: manifest.entry ?? 'server.js',
        env: { ...vars, PLATFORM_ENV: target, PLATFORM_DEPLOYMENT_ID: deploymentId },
      });
    }
    await completeDeployment({
      orgId,
      projectId,
      deploymentId,
      target,
      startedAt: Number.isFinite(started) ? started : (deploying.createdAt ?? Date.now()),
      buildMetrics: manifest.metrics ?? {},
      fn,
    });
  } catch (err) {
    log.error('deployment failed to go live', { deploymentId, error: describeError(err) });
    await failDeployment(orgId, deploymentId, `The deployment failed to go live: ${(err as Error).message}`);
  }
}
