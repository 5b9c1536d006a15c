import { describeError, log } from '../../kernel/ground/log';
import { db } from '../../kernel/store/client';
import { UpdateCommand } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPrefix, transact } from '../../kernel/store/ops';
import { TABLE } from '../../kernel/store/table';
import {
  claimPreviewHost,
  getHost,
  HostTaken,
  holdsPreview,
  hostEntry,
  pointPreviewHost,
  previewLabels,
  pullOfPreview,
  releasePreviewHost,
} from '../host-registry/registry';
import { peopleOf, raiseEvent } from '../notifications/raise';
import { getDeployment } from '../projects/deployments';
import { hostOfLabel, hostUrl } from '../projects/hosts';
import type { ProjectRecord } from '../projects/schema';
import { type CheckState, reportCheck } from '../repos/checks';
import type { DeploymentRecord, DeploymentStatus } from './schema';

/**
 * Pull request previews: a project linked to a repository builds a `preview` deployment of the
 * head of every open pull request (shared/domains/deployments/preview-builds.ts starts them), served at one
 * host per pull request and project, `<project slug>-pr-<number>.<apps domain>` (or, when another
 * project of any organization holds it, a label derived from the project id: `previewHosts`),
 * claimed for that pull request in the host registry (kind `preview`) by the transaction that
 * writes its deployment, and pointed at the newest ready (or skipped) deployment of the pull
 * request. The pull request shows it only while it holds it (`pullPreview`). Beside the pull request (partition `REPOID#<repoId>`) one item per project,
 * `PREVIEW#<number>#<projectId>`, keeps what the pull request shows: the host, the state and the
 * deployment and commit of its newest build. Closing or merging retires the host (the
 * deployments stay listed); reopening builds again.
 *
 * Every state change of a preview build goes through `onPreviewBuildState` (from `launch` and
 * from `transition`, on both targets): that is where the pull request's `build` check is reported.
 * A new head stops the builds of older heads still queued or running (`launch`), and so does
 * closing or merging (`retirePreviews` in preview-builds.ts): they end `canceled`, their check
 * `cancelled`.
 */

/** The states of a preview build, as the `build` check of the pull request reports them. */
export type PreviewBuildState = 'queued' | 'building' | 'ready' | 'error' | 'cancelled';

/** What the pull request shows of its preview: a build state, or `retired` once closed or merged. */
export type PreviewState = PreviewBuildState | 'retired';

export interface PreviewBuildChange {
  orgId: string;
  projectId: string;
  repoId: string;
  number: number;
  deploymentId: string;
  commit?: string;
  state: PreviewBuildState;
  /** `https://<preview host>` (http on the local edge): where the pull request's preview is served. */
  url: string;
  /** `https://<the deployment's own host>` (http on the local edge): where it is served when the preview host isn't its. */
  deploymentUrl: string;
  /** The build log of the deployment (the deployments route). */
  logUrl: string;
  error?: string;
  /** Nothing the project builds changed: the previous preview keeps serving (state `ready`). */
  skipped?: boolean;
  /** The pull request's author, when a person: notified of ready and failed builds. */
  authorId?: string;
}

export interface PreviewRecord {
  pk: string;
  sk: string;
  orgId: string;
  repoId: string;
  number: number;
  projectId: string;
  host: string;
  state: PreviewBuildState;
  deploymentId: string;
  commit?: string;
  skipped?: boolean;
  authorId?: string;
  retired?: boolean;
  updatedAt: number;
}

/** What `GET …/pulls/:number` answers as `preview`. */
export interface PullPreview {
  url: string;
  state: PreviewState;
  deploymentId: string;
  commit: string | null;
  projectId: string;
  skipped: boolean;
}

const pad = (n: number) => String(n).padStart(10, '0');
const previewKey = (repoId: string, number: number, projectId: string) => ({
  pk: `${PREFIXES.repos.repo}${repoId}`,
  sk: `${PREFIXES.deployments.preview}${pad(number)}#${projectId}`,
});

/**
 * The hosts a pull request's preview may take, in order: the one it had (so its URL stays across a
 * rename, a retire and a reopen), then `<slug>-pr-<number>` and the labels derived from the project
 * id (shared/domains/host-registry/registry.ts `previewLabels`: one DNS label each, at most 63 characters).
 * `launch` claims the first no other project holds, for this pull request, in the transaction that
 * writes the deployment; the host is never shared with another project or organization.
 */
export function previewHosts(project: Pick<ProjectRecord, 'slug' | 'projectId'>, number: number, had?: string) {
  const labels = previewLabels(project.slug, number, project.projectId);
  // The label only: the apps domain (locally the edge's port) is today's.
  return [...new Set([...(had ? [had.split('.')[0] as string] : []), ...labels])].map(hostOfLabel);
}

export const buildLogUrl = (orgId: string, deploymentId: string) =>
  `/v1/orgs/${orgId}/deployments/${deploymentId}/build-log`;

const STATE_OF: Partial<Record<DeploymentStatus, PreviewBuildState>> = {
  queued: 'queued',
  building: 'building',
  deploying: 'building',
  ready: 'ready',
  skipped: 'ready',
  error: 'error',
  canceled: 'cancelled',
};

/**
 * A pull request preview deployment moved (its record as written): its change goes to
 * `onPreviewBuildState`. Other deployments, and states a preview does not report (expired), pass.
 */
export async function previewDeploymentMoved(d: DeploymentRecord, extra: { authorId?: string } = {}): Promise<void> {
  const pull = d.pullRequest;
  const state = d.status && STATE_OF[d.status];
  if (!pull || d.target !== 'preview' || !state || !d.previewHost || !d.host) return;
  try {
    await onPreviewBuildState({
      orgId: d.orgId,
      projectId: d.projectId,
      repoId: pull.repoId,
      number: pull.number,
      deploymentId: d.deploymentId,
      commit: d.commitSha,
      state,
      url: hostUrl(d.previewHost),
      deploymentUrl: hostUrl(d.host),
      logUrl: buildLogUrl(d.orgId, d.deploymentId),
      ...(d.error ? { error: d.error } : {}),
      ...(d.status === 'skipped' ? { skipped: true } : {}),
      ...extra,
    });
  } catch (err) {
    // The deployment moved either way; the pull request shows it at the next change.
    log.error('preview state not recorded', { deploymentId: d.deploymentId, error: describeError(err) });
  }
}

/**
 * THE function called at each state change of a pull request's preview build (queued, building,
 * ready, error, cancelled), on both targets. It records the state on the pull request (a newer
 * build's states win; a retired preview stays retired until a new build is queued), points the
 * preview host at a ready build, and tells the author and the webhooks
 * (`pull_request.preview_ready`, `pull_request.preview_failed` with the build log).
 * The pull request's `build` check is reported from here: `change` carries its state, commit,
 * summary (`error`) and details URL (`logUrl`).
 */
export async function onPreviewBuildState(change: PreviewBuildChange): Promise<void> {
  const recorded = await recordState(change);
  // Ready is told at the preview host only once that host answers this build (the pull request
  // holds it and it points here); else at the deployment's own host, which it always holds.
  const pointed =
    recorded && change.url !== change.deploymentUrl && (await pointHost(change, new URL(change.url).host));
  const elsewhere = change.state === 'ready' && !pointed;
  const told = elsewhere ? { ...change, url: change.deploymentUrl } : change;
  // The check is the built commit's: a build superseded by a newer head, or still going when the
  // pull request closed, reports how it ended (`cancelled` when it was stopped) all the same.
  await reportBuildCheck(told);
  if (!recorded || change.skipped) return;
  if (change.state === 'ready' || change.state === 'error') await notify(told, recorded.authorId);
}

/** The build check's state for each state of the preview build. */
const CHECK_STATE_OF: Record<PreviewBuildState, CheckState> = {
  queued: 'queued',
  building: 'in_progress',
  ready: 'success',
  error: 'failure',
  cancelled: 'cancelled',
};

/**
 * The pull request's `build` check on the built commit (shared/domains/repos/checks.ts): its state
 * follows the build's, its details are the build log (the API path), its summary the preview's URL
 * or the build's error. A check that can't be written never stops the build's own state.
 */
async function reportBuildCheck(change: PreviewBuildChange): Promise<void> {
  if (!change.commit) return;
  const state = CHECK_STATE_OF[change.state];
  const summary = change.skipped
    ? `Nothing the project builds changed: ${change.url} keeps serving.`
    : change.state === 'ready'
      ? `Preview ready: ${change.url}`
      : change.state === 'error'
        ? (change.error ?? 'The build failed.').slice(0, 4000)
        : null;
  try {
    await reportCheck(change.orgId, change.repoId, change.commit, BUILD_CHECK, state, {
      summary,
      detailsUrl: change.logUrl,
      createdBy: 'platform',
      createdByKind: 'system',
    });
  } catch (err) {
    log.warn('build check not reported', { deploymentId: change.deploymentId, error: describeError(err) });
  }
}

/** The name of the check the preview build reports. */
export const BUILD_CHECK = 'build';

/** Writes the state on the pull request's preview item; undefined when a newer build or a retire holds it. */
async function recordState(change: PreviewBuildChange): Promise<PreviewRecord | undefined> {
  // A build's first state: queued, or skipped (written skipped, nothing to build).
  const queued = change.state === 'queued' || change.skipped === true;
  const host = new URL(change.url).host;
  const values: Record<string, unknown> = {
    ':o': change.orgId,
    ':r': change.repoId,
    ':n': change.number,
    ':p': change.projectId,
    ':h': host,
    ':s': change.state,
    ':d': change.deploymentId,
    ':c': change.commit ?? null,
    ':k': change.skipped === true,
    ':t': Date.now(),
  };
  const sets = [
    'orgId = :o',
    'repoId = :r',
    '#number = :n',
    'projectId = :p',
    'host = :h',
    '#state = :s',
    'deploymentId = :d',
    '#commit = :c',
    'skipped = :k',
    'updatedAt = :t',
  ];
  if (change.authorId) {
    sets.push('authorId = :a');
    values[':a'] = change.authorId;
  }
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: previewKey(change.repoId, change.number, change.projectId),
        // A new build takes the item (and ends a retire: the pull request was reopened); a build's
        // later states count while it is the newest and the preview is not retired.
        UpdateExpression: `SET ${sets.join(', ')}${queued ? ' REMOVE retired' : ''}`,
        ConditionExpression: queued
          ? 'attribute_not_exists(pk) OR deploymentId <= :d'
          : 'deploymentId = :d AND attribute_not_exists(retired)',
        ExpressionAttributeNames: { '#number': 'number', '#state': 'state', '#commit': 'commit' },
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes as PreviewRecord;
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw err;
  }
}

/**
 * The preview host answers this deployment, in one transaction with the checks that it is still
 * the pull request's newest and not retired (so a retire that comes meanwhile is never undone) and
 * that this pull request holds the host (claimed by `launch`; another project's host stays theirs).
 * Answers whether it does now.
 */
async function pointHost(
  change: Pick<PreviewRecord, 'repoId' | 'number' | 'projectId' | 'deploymentId'>,
  host: string,
): Promise<boolean> {
  try {
    await transact([
      {
        ConditionCheck: {
          TableName: TABLE(),
          Key: previewKey(change.repoId, change.number, change.projectId),
          ConditionExpression: 'deploymentId = :d AND attribute_not_exists(retired)',
          ExpressionAttributeValues: { ':d': change.deploymentId },
        },
      },
      pointPreviewHost(host, change.projectId, pullOfPreview(change.repoId, change.number), change.deploymentId),
    ]);
    return true;
  } catch (err) {
    log.warn('preview host not pointed', { host, deploymentId: change.deploymentId, error: describeError(err) });
    return false;
  }
}

function notify(change: PreviewBuildChange, authorId: string | undefined): Promise<void> {
  const ready = change.state === 'ready';
  return raiseEvent({
    kind: ready ? 'pull_request.preview_ready' : 'pull_request.preview_failed',
    orgId: change.orgId,
    resources: [{ type: 'project', id: change.projectId }],
    attributes: {
      projectId: change.projectId,
      deploymentId: change.deploymentId,
      repoId: change.repoId,
      number: String(change.number),
      ...(change.commit ? { commit: change.commit } : {}),
    },
    people: peopleOf(authorId),
    title: ready
      ? `The preview of pull request #${change.number} is ready`
      : `The preview of pull request #${change.number} failed`,
    ...(ready ? {} : { body: `${change.error ? `${change.error}\n` : ''}Build log: ${change.logUrl}` }),
    url: ready ? change.url : change.logUrl,
  });
}

/** The pull request's previews, one per linked project. */
export const previewsOfPull = (repoId: string, number: number) =>
  queryPrefix<PreviewRecord>(`${PREFIXES.repos.repo}${repoId}`, `${PREFIXES.deployments.preview}${pad(number)}#`);

/** What the pull request shows: its most recently changed preview, or null. */
export async function pullPreview(repoId: string, number: number): Promise<PullPreview | null> {
  const [latest] = (await previewsOfPull(repoId, number)).sort((a, b) => b.updatedAt - a.updatedAt);
  if (!latest) return null;
  return {
    url: await shownUrl(latest),
    state: latest.retired ? 'retired' : latest.state,
    deploymentId: latest.deploymentId,
    commit: latest.commit ?? null,
    projectId: latest.projectId,
    skipped: latest.skipped === true,
  };
}

/**
 * Where the pull request shows its preview, from the host registry: the preview host while this
 * pull request holds it (and, once ready, it answers this build); otherwise the deployment's own
 * host. So a preview is never shown at a host another project holds (one made before hosts were
 * claimed for their pull request, whose label another organization had), nor `ready` at a host
 * that serves something else.
 */
async function shownUrl(preview: PreviewRecord): Promise<string> {
  const entry = await getHost(preview.host);
  const held = holdsPreview(entry, preview.projectId, pullOfPreview(preview.repoId, preview.number));
  if (held && (preview.state !== 'ready' || entry.deploymentId === preview.deploymentId)) {
    return hostUrl(preview.host);
  }
  const own = (await getDeployment(preview.orgId, preview.deploymentId))?.host;
  return hostUrl(own ?? preview.host);
}

/**
 * A preview made before hosts were claimed for their pull request (shared/domains/hosts/migrate.ts
 * goes through them): it claims the first of its hosts that no other project holds (the one it
 * names when it can: one of its project's from before is marked as this pull request's), the
 * preview item names it, and a ready build is pointed there. Answers the host, or undefined when
 * the preview moved meanwhile (a newer build claims its own) or no host is free.
 */
export async function reclaimPreviewHost(
  preview: PreviewRecord,
  project: Pick<ProjectRecord, 'slug' | 'projectId'>,
): Promise<string | undefined> {
  const owner = {
    orgId: preview.orgId,
    projectId: preview.projectId,
    pull: pullOfPreview(preview.repoId, preview.number),
  };
  for (const host of previewHosts(project, preview.number, preview.host)) {
    try {
      await transact(
        [
          claimPreviewHost(hostEntry(host, 'preview', owner)),
          {
            Update: {
              TableName: TABLE(),
              Key: previewKey(preview.repoId, preview.number, preview.projectId),
              UpdateExpression: 'SET host = :h',
              ConditionExpression: 'deploymentId = :d AND attribute_not_exists(retired)',
              ExpressionAttributeValues: { ':h': host, ':d': preview.deploymentId },
            },
          },
        ],
        [() => new HostTaken(host), () => new Moved()],
      );
    } catch (err) {
      if (err instanceof HostTaken) continue;
      if (err instanceof Moved) return undefined;
      throw err;
    }
    if (preview.state === 'ready') await pointHost(preview, host);
    return host;
  }
  return undefined;
}

/** The preview item changed (a newer build, a retire) while a host was claimed for it. */
class Moved extends Error {}

/**
 * Marks a pull request's preview retired (later build states no longer count) and releases its
 * host (it answers as unknown hosts do). The deployments stay listed with their own hosts.
 */
export async function retirePreview(preview: PreviewRecord): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: previewKey(preview.repoId, preview.number, preview.projectId),
      UpdateExpression: 'SET retired = :y, updatedAt = :t',
      ExpressionAttributeValues: { ':y': true, ':t': Date.now() },
    }),
  );
  await releasePreviewHost(preview.host, preview.projectId, pullOfPreview(preview.repoId, preview.number));
}
