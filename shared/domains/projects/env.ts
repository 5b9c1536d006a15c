import { createHash } from 'node:crypto';
import { queryAll } from '../../kernel/store/ops';
import { keys } from '../../kernel/store/table';
import { type EncryptionContext, secrets } from '../../ports/secrets';
import type { EnvRecord, EnvTarget, EnvVar } from './env-schema';
import { projectPrefixes } from './records';

/**
 * Environment variable records, shared by the env and projects groups (and the deployments group,
 * which resolves a target's variables and their hash when a build starts).
 * pk `ORG#<orgId>`, sk `ENV#<projectId>#<key>`; the value is stored only as an envelope of the
 * secrets port, bound to the organization and the project.
 */
export const envContext = (orgId: string, projectId: string): EncryptionContext => ({
  purpose: 'env',
  orgId,
  projectId,
});

/** The project's variables, sorted by key (sort keys sort byte-wise, as keys are compared). */
export function listEnvRecords(orgId: string, projectId: string, consistent = false): Promise<EnvRecord[]> {
  return queryAll<EnvRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.org(orgId).pk, ':p': projectPrefixes.env(projectId) },
    ConsistentRead: consistent,
  });
}

/** The variable as the API answers it: a sensitive variable's value is null, always. */
export function toEnvVar(record: EnvRecord, value: string | null): EnvVar {
  return {
    key: record.key,
    orgId: record.orgId,
    projectId: record.projectId,
    value: record.sensitive ? null : value,
    targets: record.targets,
    sensitive: record.sensitive,
    updatedBy: record.updatedBy,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** A variable as a deployment gets it: its name, decrypted value and whether it is sensitive. */
interface ResolvedVar {
  key: string;
  value: string;
  sensitive: boolean;
}

/**
 * The decrypted variables of `target`, with their sensitivity (the deployments group masks the
 * sensitive values in logs). Throws SecretDecryptError when a stored value does not decrypt for
 * this project (a build must not start with a variable missing).
 */
export async function resolveVars(orgId: string, projectId: string, target: EnvTarget): Promise<ResolvedVar[]> {
  const records = (await listEnvRecords(orgId, projectId, true)).filter((r) => r.targets.includes(target));
  const values = await secrets().decrypt(
    envContext(orgId, projectId),
    records.map((r) => r.secret),
  );
  return records.map((r, i) => ({ key: r.key, value: values[i] as string, sensitive: r.sensitive !== false }));
}

/** The decrypted variables a deployment of `target` sees, by name (see resolveVars). */
export async function resolveEnv(orgId: string, projectId: string, target: EnvTarget): Promise<Record<string, string>> {
  return Object.fromEntries((await resolveVars(orgId, projectId, target)).map((v) => [v.key, v.value]));
}

/**
 * A deployment's `envHash`: SHA-256 (hex) of the variables it sees, sorted by name, so it does
 * not depend on order, encryption or which organization holds the project; it changes when a
 * name or value does.
 */
export function envHash(vars: Record<string, string>): string {
  // JSON of the sorted pairs: unambiguous whatever a value contains.
  const pairs = Object.keys(vars)
    .sort()
    .map((name) => [name, vars[name]]);
  const hash = createHash('sha256').update(JSON.stringify(pairs), 'utf8');
  return hash.digest('hex');
}
