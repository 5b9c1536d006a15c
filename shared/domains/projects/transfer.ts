import { accessOrg } from '../../kernel/auth/authenticate';
import type { Caller } from '../../kernel/auth/caller';
import { conflict, forbidden, invalid, notFound } from '../../kernel/ground/errors';
import { ORG_NOT_FOUND } from '../../kernel/ground/messages';
import { orgIsActive } from '../../kernel/identity/orgs';
import type { Organization } from '../../kernel/identity/schema';
import { db } from '../../kernel/store/client';
import { BatchGetCommand, type BatchGetCommandOutput } from '../../kernel/store/commands';
import { queryAll, transact } from '../../kernel/store/ops';
import { type Item, keys, putNew, sleep, TABLE } from '../../kernel/store/table';
import { SecretDecryptError, secrets } from '../../ports/secrets';
import { hostsOfProject, moveHosts } from '../host-registry/registry';
import { WAIT_FOR_DEPLOYMENT } from './delete';
import { deploymentInProgress, projectDeploymentKeys } from './deployments';
import { envContext, listEnvRecords } from './env';
import { hostOfLabel, productionLabelOf } from './hosts';
import { isId, PROJECT_DELETING, PROJECT_TRANSFERRING, projectKeys, projectPrefixes, requireProject } from './records';
import { domainsOf, linkedStorage } from './related';
import type { ProjectRecord } from './schema';
import type { DeployedFunctionRemovers } from './server-functions';

export const ALREADY_HERE = 'The project is already in this organization.';
export const UNLINK_STORAGE = "Unlink this project's databases and buckets first. They stay in this organization.";
const slugTaken = (target: Organization) => `${target.name} already has a project with this slug. Rename it first.`;

/**
 * Moves a project to another organization the caller administers (holds `org:write` in both).
 * Deployments, domains, variables (re-encrypted for the target), crons, server functions and
 * routes move with it; the repository stays and is disconnected; linked databases and buckets
 * must be unlinked first.
 *
 * The project is first marked `transferring` in the same transaction that reserves its slug in
 * the target, so nothing new starts and no other project takes the slug. Records then move in
 * transactions (delete here + put there), so each is in exactly one organization at any time;
 * the project record moves last. A transfer that fails part-way leaves the project
 * `transferring`, and running it again (same target) finishes it.
 */
export async function transferProject(
  source: Organization,
  caller: Caller,
  projectId: string,
  targetOrgId: string,
  deployed: Pick<DeployedFunctionRemovers, 'functions'>,
): Promise<{ project: ProjectRecord; org: Organization }> {
  const project = await requireProject(source.orgId, projectId, true);
  if (targetOrgId === source.orgId) throw invalid(ALREADY_HERE);
  if (project.status === 'deleting') throw conflict(PROJECT_DELETING);
  if (project.status === 'transferring' && project.transferTo !== targetOrgId) throw conflict(PROJECT_TRANSFERRING);
  if (!isId('org_', targetOrgId)) throw notFound(ORG_NOT_FOUND);
  const target = await accessOrg(caller, targetOrgId);
  if (!target.scopes.has('org:write')) throw forbidden('Missing scope org:write');

  let moving = project;
  if (project.status === 'active') {
    await checkMovable(project);
    await readableEnv(project);
    moving = await reserve(project, target.org);
    try {
      // Again, now that nothing new can start or be linked: what raced the reservation.
      await checkMovable(moving);
    } catch (err) {
      await release(moving, target.org);
      throw err;
    }
  } else {
    // Resuming: the same rules hold (a deployment that started before the mark must finish).
    await checkMovable(moving);
  }

  // Server functions run in their organization: stopped and removed before the records move.
  await deployed.functions(moving);
  await moveEnv(moving, target.org.orgId);
  await moveRecords(moving, target.org.orgId);
  await moveProjectHosts(moving, target.org.orgId);
  const moved = await finish(moving, target.org.orgId);
  return { project: moved, org: target.org };
}

/** 409 while databases or buckets are linked, or a deployment is in progress (in that order). */
async function checkMovable(project: ProjectRecord): Promise<void> {
  if ((await linkedStorage(project.orgId, project.projectId)).length > 0) throw conflict(UNLINK_STORAGE);
  if (await deploymentInProgress(project.projectId)) throw conflict(WAIT_FOR_DEPLOYMENT);
}

/** Every value must decrypt here before anything moves, or it could not be re-encrypted there. */
async function readableEnv(project: ProjectRecord): Promise<void> {
  const records = await listEnvRecords(project.orgId, project.projectId, true);
  try {
    await secrets().decrypt(
      envContext(project.orgId, project.projectId),
      records.map((r) => r.secret),
    );
  } catch (err) {
    if (!(err instanceof SecretDecryptError)) throw err;
    throw conflict("A variable's value can't be decrypted. Set its value again or delete it, then try again.");
  }
}

/** Marks the project `transferring` and reserves its slug in the target, in one transaction. */
async function reserve(project: ProjectRecord, target: Organization): Promise<ProjectRecord> {
  const now = Date.now();
  await transact(
    [
      orgIsActive(target.orgId),
      putNew({ ...projectKeys.slug(target.orgId, project.slug), projectId: project.projectId }),
      {
        Update: {
          TableName: TABLE(),
          Key: projectKeys.project(project.orgId, project.projectId),
          UpdateExpression:
            'SET #status = :transferring, transferTo = :to, updatedAt = :now, #version = #version + :one',
          ConditionExpression: '#version = :v AND #status = :active',
          ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
          ExpressionAttributeValues: {
            ':transferring': 'transferring',
            ':to': target.orgId,
            ':now': now,
            ':one': 1,
            ':v': project.version,
            ':active': 'active',
          },
        },
      },
    ],
    [
      () => notFound(ORG_NOT_FOUND),
      () => conflict(slugTaken(target)),
      () => conflict('The project changed since it was read. Reload and try again.'),
    ],
  );
  return { ...project, status: 'transferring', transferTo: target.orgId, updatedAt: now, version: project.version + 1 };
}

/** Undoes `reserve` when the project turned out not to be movable after all. */
async function release(project: ProjectRecord, target: Organization): Promise<void> {
  await transact([
    {
      Delete: {
        TableName: TABLE(),
        Key: projectKeys.slug(target.orgId, project.slug),
        ConditionExpression: 'attribute_not_exists(pk) OR projectId = :id',
        ExpressionAttributeValues: { ':id': project.projectId },
      },
    },
    {
      Update: {
        TableName: TABLE(),
        Key: projectKeys.project(project.orgId, project.projectId),
        UpdateExpression: 'SET #status = :active, #version = #version + :one REMOVE transferTo',
        ConditionExpression: '#status = :transferring',
        ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
        ExpressionAttributeValues: { ':active': 'active', ':transferring': 'transferring', ':one': 1 },
      },
    },
  ]);
}

/** One record's move: deleted here and written there in the same transaction. */
interface Move {
  from: { pk: string; sk: string };
  to: Item;
}

/** DynamoDB transactions take 100 items and 4 MB: pairs of items, well under the size. */
const MAX_MOVES = 50;
const MAX_BYTES = 3_000_000;

async function runMoves(moves: Move[]): Promise<void> {
  let batch: Move[] = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await transact(
      batch.flatMap((m) => [
        { Delete: { TableName: TABLE(), Key: m.from } },
        { Put: { TableName: TABLE(), Item: m.to } },
      ]),
    );
    batch = [];
    bytes = 0;
  };
  for (const move of moves) {
    const size = JSON.stringify(move.to).length + 200;
    if (batch.length >= MAX_MOVES || bytes + size > MAX_BYTES) await flush();
    batch.push(move);
    bytes += size;
  }
  await flush();
}

const rehome = (item: Item, targetOrgId: string): Item => ({
  ...item,
  pk: keys.org(targetOrgId).pk,
  orgId: targetOrgId,
  ...(typeof item.version === 'number' ? { version: item.version + 1 } : {}),
});

/** Variables are decrypted under the source's context and encrypted under the target's. */
async function moveEnv(project: ProjectRecord, targetOrgId: string): Promise<void> {
  const records = await listEnvRecords(project.orgId, project.projectId, true);
  if (records.length === 0) return;
  const values = await secrets().decrypt(
    envContext(project.orgId, project.projectId),
    records.map((r) => r.secret),
  );
  const sealed = await secrets().encrypt(envContext(targetOrgId, project.projectId), values);
  await runMoves(
    records.map((r, i) => ({
      from: { pk: r.pk, sk: r.sk },
      to: { ...rehome({ ...r }, targetOrgId), secret: sealed[i] as string },
    })),
  );
}

/** Strongly consistent BatchGet (the deployment keys come from the eventually consistent GSI). */
async function readAll(list: { pk: string; sk: string }[]): Promise<Item[]> {
  const items: Item[] = [];
  for (let i = 0; i < list.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = list.slice(i, i + 100).map((k) => ({ pk: k.pk, sk: k.sk }));
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      if (attempt > 0) await sleep(20 * 2 ** Math.min(attempt, 6));
      const out: BatchGetCommandOutput = await db.send(
        new BatchGetCommand({ RequestItems: { [TABLE()]: { Keys: pending, ConsistentRead: true } } }),
      );
      items.push(...((out.Responses?.[TABLE()] ?? []) as Item[]));
      pending = out.UnprocessedKeys?.[TABLE()]?.Keys;
      if (attempt > 8 && pending?.length) throw new Error('BatchGet left keys unprocessed');
    }
  }
  return items;
}

function withPrefix(orgId: string, prefix: string): Promise<Item[]> {
  return queryAll<Item>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.org(orgId).pk, ':p': prefix },
    ConsistentRead: true,
  });
}

/** Deployments, domains, crons, server functions and routes. */
async function moveRecords(project: ProjectRecord, targetOrgId: string): Promise<void> {
  const { orgId, projectId } = project;
  const deploymentKeys = (await projectDeploymentKeys(projectId)).filter((d) => d.orgId === orgId);
  const groups = await Promise.all([
    readAll(deploymentKeys),
    domainsOf(orgId, projectId, true),
    withPrefix(orgId, projectPrefixes.cron(projectId)),
    withPrefix(orgId, projectPrefixes.serverFunction(projectId)),
    withPrefix(orgId, projectPrefixes.route(projectId)),
  ]);
  await runMoves(groups.flat().map((item) => ({ from: { pk: item.pk, sk: item.sk }, to: rehome(item, targetOrgId) })));
}

/** The registry's items of the project's hosts name the target (the hosts themselves stay). */
async function moveProjectHosts(project: ProjectRecord, targetOrgId: string): Promise<void> {
  const { projectId } = project;
  const [routes, domains, held] = await Promise.all([
    withPrefix(targetOrgId, projectPrefixes.route(projectId)),
    domainsOf(targetOrgId, projectId, true),
    hostsOfProject(projectId),
  ]);
  await moveHosts(
    [
      hostOfLabel(productionLabelOf(project)),
      ...routes.map((r) => String(r.host)),
      ...domains.map((d) => String(d.hostname)),
      ...held.map((h) => h.host),
    ],
    projectId,
    targetOrgId,
  );
}

/** The project record moves last: its slug here goes, the repository is disconnected. */
async function finish(project: ProjectRecord, targetOrgId: string): Promise<ProjectRecord> {
  const { pk: _pk, sk: _sk, repoId: _repo, transferTo: _to, ...rest } = project;
  const moved: ProjectRecord = {
    ...rest,
    ...projectKeys.project(targetOrgId, project.projectId),
    orgId: targetOrgId,
    status: 'active',
    updatedAt: Date.now(),
    version: project.version + 1,
  };
  await transact(
    [
      orgIsActive(targetOrgId),
      {
        Delete: {
          TableName: TABLE(),
          Key: projectKeys.project(project.orgId, project.projectId),
          ConditionExpression: '#status = :transferring AND transferTo = :to',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':transferring': 'transferring', ':to': targetOrgId },
        },
      },
      {
        Delete: {
          TableName: TABLE(),
          Key: projectKeys.slug(project.orgId, project.slug),
          ConditionExpression: 'attribute_not_exists(pk) OR projectId = :id',
          ExpressionAttributeValues: { ':id': project.projectId },
        },
      },
      putNew({ ...moved }),
    ],
    [() => notFound(ORG_NOT_FOUND)],
  );
  return moved;
}
