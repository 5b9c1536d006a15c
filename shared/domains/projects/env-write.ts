import type { Caller } from '../../kernel/auth/caller';
import { conflict, DomainError, invalid, notFound } from '../../kernel/ground/errors';
import { describeError, log } from '../../kernel/ground/log';
import { ORG_NOT_FOUND } from '../../kernel/ground/messages';
import { orgIsActive } from '../../kernel/identity/orgs';
import { transact } from '../../kernel/store/ops';
import { getItem, TABLE } from '../../kernel/store/table';
import { secrets } from '../../ports/secrets';
import { envContext } from './env';
import { checkName, checkNames } from './env-names';
import type { EnvRecord, EnvTarget } from './env-schema';
import { actorId, assertActive, projectIsActive, projectKeys, requireProject } from './records';

export const NOT_ALL_SAVED = "Some variables weren't saved. Try again.";
export const ENTER_VALUE = 'Enter a value.';
export const ENTER_NEW_VALUE = 'Enter a new value to make this variable visible.';

/** The project was deleted, or is being deleted or transferred, since it was read. */
class ProjectGone extends Error {}

/** After a failed condition on the project: the exact answer (404, or 409 saying why). */
async function projectError(orgId: string, projectId: string): Promise<never> {
  assertActive(await requireProject(orgId, projectId, true));
  throw conflict('The project changed since it was read. Reload and try again.');
}

const dedupe = <T>(list: T[]) => [...new Set(list)];

/**
 * The write of one variable: every field set, `createdAt` kept from the first write. An update,
 * not a put, so writing it again converges to the same state (a retried bulk write).
 */
function setVar(
  orgId: string,
  projectId: string,
  key: string,
  fields: { secret?: string; targets: EnvTarget[]; sensitive: boolean; updatedBy: string },
  now: number,
  expectedVersion?: number,
) {
  const values: Record<string, unknown> = {
    ':key': key,
    ':org': orgId,
    ':project': projectId,
    ':targets': fields.targets,
    ':sensitive': fields.sensitive,
    ':by': fields.updatedBy,
    ':now': now,
    ':zero': 0,
    ':one': 1,
  };
  // Every attribute by alias: several (key, sensitive, …) are DynamoDB reserved words.
  const names: Record<string, string> = {
    '#key': 'key',
    '#orgId': 'orgId',
    '#projectId': 'projectId',
    '#targets': 'targets',
    '#sensitive': 'sensitive',
    '#updatedBy': 'updatedBy',
    '#updatedAt': 'updatedAt',
    '#createdAt': 'createdAt',
    '#version': 'version',
  };
  const sets = [
    '#key = :key',
    '#orgId = :org',
    '#projectId = :project',
    '#targets = :targets',
    '#sensitive = :sensitive',
    '#updatedBy = :by',
    '#updatedAt = :now',
    '#createdAt = if_not_exists(#createdAt, :now)',
    '#version = if_not_exists(#version, :zero) + :one',
  ];
  if (fields.secret !== undefined) {
    names['#secret'] = 'secret';
    values[':secret'] = fields.secret;
    sets.push('#secret = :secret');
  }
  if (expectedVersion !== undefined) values[':expected'] = expectedVersion;
  return {
    Update: {
      TableName: TABLE(),
      Key: projectKeys.env(orgId, projectId, key),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ...(expectedVersion !== undefined ? { ConditionExpression: '#version = :expected' } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** Items of one transaction: the organization and project checks plus up to 98 variables, < 4 MB. */
const MAX_VARS_PER_TRANSACTION = 98;
const MAX_TRANSACTION_BYTES = 3_000_000;

interface BulkInput {
  vars: { key: string; value: string }[];
  targets: EnvTarget[];
  sensitive: boolean;
}

/**
 * Creates or replaces many variables with the same targets and sensitivity. Nothing is written
 * unless every name is valid. The values are encrypted in one batch, then written in as few
 * transactions as DynamoDB allows (100 items, 4 MB each), each checking that the organization
 * and the project are still active. When a later transaction fails after an earlier one was
 * written, the answer is 503: the writes are idempotent, so running the request again converges
 * to the full set. A name given twice takes its last value.
 */
export async function upsertMany(orgId: string, projectId: string, caller: Caller, input: BulkInput) {
  const values = new Map<string, string>();
  for (const v of input.vars) values.set(v.key, v.value);
  const names = [...values.keys()];
  checkNames(input.vars.map((v) => v.key));
  assertActive(await requireProject(orgId, projectId));
  const targets = dedupe(input.targets);

  const sealed = await secrets().encrypt(envContext(orgId, projectId), [...values.values()]);
  const now = Date.now();
  const updatedBy = actorId(caller);
  const chunks: ReturnType<typeof setVar>[][] = [];
  let chunk: ReturnType<typeof setVar>[] = [];
  let bytes = 0;
  names.forEach((key, i) => {
    const secret = sealed[i] as string;
    const size = secret.length + key.length * 3 + 400;
    if (chunk.length >= MAX_VARS_PER_TRANSACTION || (chunk.length > 0 && bytes + size > MAX_TRANSACTION_BYTES)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(setVar(orgId, projectId, key, { secret, targets, sensitive: input.sensitive, updatedBy }, now));
    bytes += size;
  });
  chunks.push(chunk);

  let written = 0;
  for (const items of chunks) {
    try {
      await transact(
        [orgIsActive(orgId), projectIsActive(orgId, projectId), ...items],
        [() => notFound(ORG_NOT_FOUND), () => new ProjectGone()],
      );
      written += items.length;
    } catch (err) {
      if (written === 0) {
        if (err instanceof ProjectGone) return projectError(orgId, projectId);
        throw err;
      }
      log.warn('bulk variable write stopped part-way', {
        orgId,
        projectId,
        written,
        total: names.length,
        error: err instanceof DomainError ? err.message : describeError(err),
      });
      throw new DomainError('unavailable', NOT_ALL_SAVED);
    }
  }
  return { keys: names, targets, sensitive: input.sensitive };
}

interface PutInput {
  value?: string;
  targets: EnvTarget[];
  sensitive: boolean;
}

/**
 * Creates or replaces one variable. Without `value` the stored value is kept (to change the
 * targets or hide a variable); a sensitive variable can be made visible only with a new value.
 * That check and the write are one guarded step: the variable's version must be the one read.
 */
export async function putOne(orgId: string, projectId: string, key: string, caller: Caller, input: PutInput) {
  checkName(key);
  assertActive(await requireProject(orgId, projectId));
  const targets = dedupe(input.targets);
  const fields = { targets, sensitive: input.sensitive, updatedBy: actorId(caller) };
  const failures = [() => notFound(ORG_NOT_FOUND), () => new ProjectGone()];

  for (let attempt = 0; ; attempt++) {
    let item: ReturnType<typeof setVar>;
    if (input.value !== undefined) {
      const [secret] = await secrets().encrypt(envContext(orgId, projectId), [input.value]);
      item = setVar(orgId, projectId, key, { ...fields, secret }, Date.now());
    } else {
      const stored = await getItem<EnvRecord>(projectKeys.env(orgId, projectId, key), true);
      if (!stored) throw invalid(ENTER_VALUE);
      if (stored.sensitive && !input.sensitive) throw invalid(ENTER_NEW_VALUE);
      item = setVar(orgId, projectId, key, fields, Date.now(), stored.version);
    }
    try {
      await transact([orgIsActive(orgId), projectIsActive(orgId, projectId), item], [...failures]);
      return { key, targets, sensitive: input.sensitive };
    } catch (err) {
      if (err instanceof ProjectGone) return projectError(orgId, projectId);
      // The variable changed between the read and the write: read it again.
      const canceled = (err as Error).name === 'TransactionCanceledException';
      if (!canceled || input.value !== undefined || attempt >= 4) throw err;
    }
  }
}

/** Deletes one variable (204 whether or not it existed). Running deployments keep their copy. */
export async function deleteOne(orgId: string, projectId: string, key: string): Promise<void> {
  assertActive(await requireProject(orgId, projectId));
  try {
    await transact(
      [
        projectIsActive(orgId, projectId),
        { Delete: { TableName: TABLE(), Key: projectKeys.env(orgId, projectId, key) } },
      ],
      [() => new ProjectGone()],
    );
  } catch (err) {
    if (err instanceof ProjectGone) return projectError(orgId, projectId);
    throw err;
  }
}
