import { log } from '../../kernel/ground/log';
import { SecretDecryptError, secrets } from '../../ports/secrets';
import { envContext, listEnvRecords, toEnvVar } from './env';
import type { EnvRecord, EnvVar } from './env-schema';
import { requireProject } from './records';

/**
 * The project's variables, sorted by key. Values of visible variables are decrypted (one batch);
 * sensitive ones are never decrypted here and answer `value: null`. A visible value that does not
 * decrypt for this project (e.g. a ciphertext copied from another one) answers null too, and is
 * logged by name.
 */
export async function listVars(orgId: string, projectId: string): Promise<EnvVar[]> {
  const [records] = await Promise.all([listEnvRecords(orgId, projectId), requireProject(orgId, projectId)]);
  records.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const visible = records.filter((r) => !r.sensitive);
  const values = new Map<EnvRecord, string | null>();
  const context = envContext(orgId, projectId);
  try {
    const plain = await secrets().decrypt(
      context,
      visible.map((r) => r.secret),
    );
    visible.forEach((r, i) => {
      values.set(r, plain[i] as string);
    });
  } catch (err) {
    if (!(err instanceof SecretDecryptError)) throw err;
    for (const r of visible) {
      try {
        values.set(r, (await secrets().decrypt(context, [r.secret]))[0] as string);
      } catch (one) {
        if (!(one instanceof SecretDecryptError)) throw one;
        log.warn('variable does not decrypt for its project', { orgId, projectId, key: r.key });
        values.set(r, null);
      }
    }
  }
  return records.map((r) => toEnvVar(r, values.get(r) ?? null));
}
