import { artifactsBucket, config, findLocation } from '../../kernel/config';
import { DomainError } from '../../kernel/ground/errors';
import { log } from '../../kernel/ground/log';
import { ORG_NOT_FOUND } from '../../kernel/ground/messages';
import { orgIsActive } from '../../kernel/identity/orgs';
import { newId } from '../../kernel/store/ids';
import { transact } from '../../kernel/store/ops';
import { putNew } from '../../kernel/store/table';
import { type BuildSource, builds } from '../../ports/builds';
import {
  claimPreviewHost,
  HOST_IN_USE,
  HostTaken,
  hostEntry,
  pullOfPreview,
  reserveHost,
} from '../host-registry/registry';
import { regionOfLocation } from '../platform-admin/geo';
import { newDeploymentItems } from '../projects/deployments';
import { envHash } from '../projects/env';
import { PROJECT_NOT_FOUND } from '../projects/records';
import type { ProjectRecord } from '../projects/schema';
import { lfsObjectPrefix } from '../repos/lfs/objects';
import { cancelDeployment, stopIfCanceled } from './cancel';
import { type DeploymentEnv, deploymentEnv } from './env';
import { deploymentHost } from './hosts';
import { sealLogMask } from './log-mask';
import { previewDeploymentMoved } from './previews';
import { inFlightForPull, queuedFor, routeItem, setFields, transition } from './records';
import { expiryMarker } from './retention';
import type { DeploymentMeta, DeploymentRecord, DeploymentStatus, DeploymentTarget } from './schema';

/** Spec part A: the build could not be started (the deployment is left in `error`). */
export const START_FAILED = "Couldn't start the build. Try again.";

interface LaunchInput {
  project: ProjectRecord;
  target: DeploymentTarget;
  createdBy: string;
  source: BuildSource;
  branch?: string;
  commitSha?: string;
  commitMessage?: string;
  commitAuthor?: string;
  previousDeploymentId?: string;
  reason?: string;
  meta?: DeploymentMeta;
  /** The environment, when the caller has read it already (deploymentEnv of the target). */
  env?: DeploymentEnv;
  /** An uploaded archive's size and SHA-256, when known (what a later `skipped` compares). */
  sourceSize?: number;
  sourceHash?: string;
  /**
   * `skipped`: the record is written as skipped (nothing to build; `previousDeploymentId` keeps
   * serving at its host) and no build starts.
   */
  skip?: { previousDeploymentId: string; reason: string };
  /**
   * A pull request's preview (shared/domains/deployments/previews.ts): `hosts` are the preview
   * hosts it may take, in order (the first that no other project holds is claimed for the pull request).
   */
  pullRequest?: { repoId: string; number: number; authorId?: string; hosts: string[] };
}

/**
 * Creates a deployment and starts its build: supersedes queued deployments of the same project,
 * branch and target (`canceled`), resolves the deployment's variables (the project's and its
 * linked resources'; their hash is kept, the sensitive values sealed for log masking), writes
 * the record with its host route in one transaction (the organization and the project must be
 * active), and hands the job to the builds port. A build that can't be started leaves the
 * deployment in `error` and answers 502.
 */
export async function launch(input: LaunchInput): Promise<DeploymentRecord> {
  const { project, target } = input;
  const { orgId, projectId } = project;
  const deploymentId = newId('dpl_');
  const now = Date.now();
  const host = deploymentHost(project.slug, deploymentId);
  const skipped = input.skip !== undefined;

  const env = skipped ? undefined : (input.env ?? (await deploymentEnv(orgId, projectId, target)));
  const deployment: NewDeployment = {
    deploymentId,
    orgId,
    projectId,
    location: project.location,
    target,
    status: skipped ? 'skipped' : 'queued',
    createdAt: now,
    updatedAt: now,
    region: (await regionOfLocation(project.location)) ?? findLocation(project.location)?.region ?? config.region,
    createdBy: input.createdBy,
    branch: input.branch,
    commitSha: input.commitSha,
    commitMessage: input.commitMessage,
    commitAuthor: input.commitAuthor,
    host,
    envHash: env && envHash(env.vars),
    previousDeploymentId: input.skip?.previousDeploymentId ?? input.previousDeploymentId,
    reason: input.skip?.reason ?? input.reason,
    source: input.source.kind,
    sourceArchive: input.source.kind === 'upload' ? input.source.key : undefined,
    meta: input.meta,
    logMask: env && (await sealLogMask(deploymentId, env.sensitive)),
    sourceSize: input.sourceSize,
    sourceHash: input.sourceHash,
  };
  // A pull request's preview host: the first of its candidates that no other project holds, claimed
  // in the transaction that writes the deployment; none free, the deployment's own host is it.
  const pull = input.pullRequest;
  for (const previewHost of pull ? [...pull.hosts, host] : [undefined]) {
    const claim = pull && previewHost !== host ? previewHost : undefined;
    if (pull) {
      deployment.pullRequest = { repoId: pull.repoId, number: pull.number };
      deployment.previewHost = previewHost;
    }
    try {
      await writeDeployment(
        deployment,
        pull && claim ? { host: claim, pull: pullOfPreview(pull.repoId, pull.number) } : undefined,
      );
      break;
    } catch (err) {
      if (!(claim && err instanceof HostTaken && err.host === claim)) throw err;
    }
  }
  const record = { ...deployment } as DeploymentRecord;
  await previewDeploymentMoved(record, { authorId: input.pullRequest?.authorId });
  if (!env) return record;

  await supersede(project, input, deploymentId);
  const port = builds();
  try {
    const { buildId } = await port.start({
      deploymentId,
      orgId,
      projectId,
      target,
      settings: {
        framework: project.framework,
        rootDirectory: project.rootDirectory,
        installCommand: project.installCommand,
        buildCommand: project.buildCommand,
        outputDirectory: project.outputDirectory,
      },
      source: withLfs(orgId, input.source),
      env: env.vars,
    });
    await setFields(orgId, deploymentId, { buildId });
    record.buildId = buildId;
    await stopIfCanceled(orgId, deploymentId, buildId);
  } catch (err) {
    log.error('build start failed', { deploymentId, error: (err as Error).message });
    await transition(orgId, deploymentId, ['queued'], 'error', { error: START_FAILED });
    throw new DomainError('backend', START_FAILED);
  }
  return record;
}

type NewDeployment = Omit<DeploymentRecord, 'pk' | 'sk' | 'gsi1pk' | 'gsi1sk' | 'version'>;

/**
 * The deployment's record, its edge route and expiry marker, its host reserved in the global
 * registry (shared/domains/host-registry), and `preview`'s host claimed for that pull request (HostTaken
 * when another project holds it), in one transaction (the organization and the project active).
 */
async function writeDeployment(deployment: NewDeployment, preview?: { host: string; pull: string }): Promise<void> {
  const {
    orgId,
    projectId,
    deploymentId,
    host,
    createdAt: now,
  } = deployment as NewDeployment & {
    host: string;
    createdAt: number;
  };
  const items = [
    orgIsActive(orgId),
    ...newDeploymentItems(deployment),
    putNew(routeItem(orgId, projectId, host, { deploymentId }, now) as never),
    putNew(expiryMarker(deploymentId, projectId, now) as never),
  ];
  const failures: (string | (() => Error) | undefined)[] = [
    () => new DomainError('notFound', ORG_NOT_FOUND),
    undefined,
    () => new DomainError('notFound', PROJECT_NOT_FOUND),
  ];
  failures[items.length] = HOST_IN_USE(host);
  items.push(reserveHost(hostEntry(host, 'deployment', { orgId, projectId, deploymentId }, now)) as never);
  if (preview) {
    failures[items.length] = () => new HostTaken(preview.host);
    items.push(
      claimPreviewHost(hostEntry(preview.host, 'preview', { orgId, projectId, pull: preview.pull }, now)) as never,
    );
  }
  await transact(items, failures);
}

/** A commit's build replaces its Git LFS pointers by the repository's objects (shared/ports/builds/lfs.ts). */
const withLfs = (orgId: string, source: BuildSource): BuildSource =>
  source.kind === 'git'
    ? { ...source, lfs: { bucket: artifactsBucket(), prefix: lfsObjectPrefix({ orgId, repoId: source.repoId }) } }
    : source;

/**
 * Queued deployments of the same project, branch and target give way to `newer`; for a pull
 * request's preview, so does a build of an older head still queued or running (its build is
 * stopped, its `build` check becomes `cancelled`).
 */
async function supersede(
  project: ProjectRecord,
  input: Pick<LaunchInput, 'branch' | 'target' | 'pullRequest'>,
  newer: string,
) {
  const queued = await queuedFor(project.projectId, input.branch, input.target);
  const pull = input.pullRequest;
  const running = pull ? await inFlightForPull(project.projectId, pull.repoId, pull.number) : [];
  // A pull request's older builds stop while queued or building; a branch's only while queued.
  const from: DeploymentStatus[] = pull ? ['queued', 'building'] : ['queued'];
  const older = new Set([...queued, ...running].map((d) => d.deploymentId).filter((id) => id !== newer));
  for (const id of older) await cancelDeployment(project.orgId, id, `Superseded by ${newer}.`, from);
}
