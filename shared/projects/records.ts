import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Caller } from '../auth/caller';
import { conflict, notFound } from '../http/errors';
import type { ProjectRecord } from '../schemas/project';
import { db } from '../store/client';
import { getItem, keys, sleep, TABLE } from '../store/table';

/**
 * The record layout of a project and of what belongs to it, in one place. Everything lives under
 * the organization's partition (`pk = ORG#<orgId>`):
 *
 * | record | sk | notes |
 * |---|---|---|
 * | project | `PRJ#<projectId>` | counted by the organization's contents route |
 * | slug | `PRJSLUG#<slug>` | `{ projectId }`: slug uniqueness in one transaction |
 * | environment variable | `ENV#<projectId>#<key>` | shared/projects/env.ts |
 * | deployment | `DPL#<deploymentId>` | gsi1 `PRJ#<projectId>` / `DPL#<deploymentId>`; shared/projects/deployments.ts |
 * | domain | `DOM#<hostname>` | field `projectId` (domains group) |
 * | cron | `CRON#<projectId>#<name>` | (deployments group) |
 * | server function | `FN#<projectId>#<name>` | (deployments group) |
 * | route | `ROUTE#<projectId>#<host>` | edge routing of a deployment host (deployments group) |
 * | repository, database, bucket | `RES#<type>#<resourceId>` | databases and buckets link with field `projectId` |
 */
export const projectKeys = {
  project: (orgId: string, projectId: string) => ({ pk: keys.org(orgId).pk, sk: `PRJ#${projectId}` }),
  slug: (orgId: string, slug: string) => ({ pk: keys.org(orgId).pk, sk: `PRJSLUG#${slug}` }),
  env: (orgId: string, projectId: string, key: string) => ({ pk: keys.org(orgId).pk, sk: `ENV#${projectId}#${key}` }),
  resource: (orgId: string, type: 'repository' | 'database' | 'bucket', resourceId: string) => ({
    pk: keys.org(orgId).pk,
    sk: `RES#${type}#${resourceId}`,
  }),
};

/** Sort-key prefixes of records that belong to one project and move or go with it. */
export const projectPrefixes = {
  env: (projectId: string) => `ENV#${projectId}#`,
  cron: (projectId: string) => `CRON#${projectId}#`,
  serverFunction: (projectId: string) => `FN#${projectId}#`,
  route: (projectId: string) => `ROUTE#${projectId}#`,
};
export const DOMAIN_PREFIX = 'DOM#';

export const PROJECT_NOT_FOUND = 'Project not found';
export const PROJECT_DELETING = 'This project is being deleted. Delete it again to finish.';
export const PROJECT_TRANSFERRING = 'This project is being transferred. Run the transfer again to finish it.';

export function getProject(orgId: string, projectId: string, consistent = false): Promise<ProjectRecord | undefined> {
  return getItem<ProjectRecord>(projectKeys.project(orgId, projectId), consistent);
}

/** The project, or 404 `Project not found`. */
export async function requireProject(orgId: string, projectId: string, consistent = false): Promise<ProjectRecord> {
  const project = await getProject(orgId, projectId, consistent);
  if (!project) throw notFound(PROJECT_NOT_FOUND);
  return project;
}

/** Changes are refused while a delete or transfer is unfinished (409, saying how to finish it). */
export function assertActive(project: ProjectRecord): void {
  if (project.status === 'deleting') throw conflict(PROJECT_DELETING);
  if (project.status === 'transferring') throw conflict(PROJECT_TRANSFERRING);
}

/**
 * A transaction item that holds only while the project exists and is active: writes of things
 * that belong to a project carry it, so a delete or transfer under way leaves no stragglers.
 */
export const projectIsActive = (orgId: string, projectId: string) => ({
  ConditionCheck: {
    TableName: TABLE(),
    Key: projectKeys.project(orgId, projectId),
    ConditionExpression: 'attribute_exists(pk) AND #status = :active',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':active': 'active' },
  },
});

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/**
 * Runs a transaction; when item `i` fails its condition, `failures[i]` says what to answer (the
 * first failing item in the list wins, so order items by the precedence of their errors).
 * Transactions that lose a race with another transaction on the same items
 * (`TransactionConflict`, e.g. 50 creates checking the same organization) are retried with
 * jittered backoff: each then either commits or fails on a real condition.
 */
export async function transactOrFail(
  items: TransactItems,
  failures: ((() => Error) | undefined)[] = [],
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (err) {
      const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
      if ((err as Error).name !== 'TransactionCanceledException' || !reasons) throw err;
      const failed = reasons.findIndex((r, i) => r.Code === 'ConditionalCheckFailed' && failures[i]);
      if (failed >= 0) throw (failures[failed] as () => Error)();
      const conflicted = reasons.some((r) => r.Code === 'TransactionConflict');
      if (!conflicted || attempt >= 40) throw err;
      await sleep(10 + Math.random() * Math.min(400, 20 * 2 ** Math.min(attempt, 5)));
    }
  }
}

/** Who made a change, as records name it: the person's user id, or the key's id. */
export function actorId(caller: Caller): string {
  return caller.kind === 'user' ? caller.userId : caller.keyId;
}

/** Ids as the API issues them (`prj_…`): anything else is unknown without asking the table. */
export const isId = (prefix: string, value: string) =>
  value.length <= 64 && value.startsWith(prefix) && /^[a-z]+_[0-9a-z]+$/i.test(value);
