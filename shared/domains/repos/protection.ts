import { invalid } from '../../kernel/ground/errors';
import { getMany, keys as storeKeys } from '../../kernel/store/table';
import { CHECK_MESSAGES, requiredSource, reservedName } from './checks';
import type { RequiredCheck, RequiredCheckSource } from './record-schemas';
import type { RepoRecord } from './records';

/** Branch protection: required checks, at most this many. */
export const MAX_REQUIRED_CHECKS = 20;

export const PROTECTION_MESSAGES = {
  twice: (name: string) => `Check "${name}" is required twice with different sources.`,
  keyNotFound: (kind: 'API key' | 'Agent key', keyId: string) => `${kind} "${keyId}" not found.`,
} as const;

const keyLabel = (kind: 'api' | 'agent') => (kind === 'api' ? 'API key' : 'Agent key');

/**
 * The protected branch: the default branch while pull requests into it need approvals or checks
 * (it then changes only through them); null otherwise.
 */
export const protectedBranchOf = (r: RepoRecord): string | null =>
  (r.requiredApprovals ?? 0) > 0 || (r.requiredChecks?.length ?? 0) > 0 ? r.defaultBranch : null;

/** Branch protection as GET and PUT …/protection answer it. */
export const protectionOf = (r: RepoRecord) => ({
  requiredApprovals: r.requiredApprovals ?? 0,
  requiredChecks: r.requiredChecks ?? [],
  branch: protectedBranchOf(r),
});

/** The checks a merge of a pull request into `target` needs to be `success` on its head (from their writer when bound). */
export const requiredChecksFor = (r: RepoRecord, target: string): RequiredCheck[] =>
  target === protectedBranchOf(r) ? (r.requiredChecks ?? []) : [];

/**
 * Required checks as PUT …/protection stores them: a bare name, or a name with its writer (an object
 * without `source` is a bare name; a platform name as the platform writes it); the same entry twice once. 400 for a name listed with two
 * sources, a platform name (`build`) bound to another writer, and a key this organization lacks
 * (an API key bound as `apiKey`, a platform agent key as `agentKey`).
 */
export async function requiredChecksOf(
  orgId: string,
  entries: { name: string; source?: RequiredCheckSource }[],
): Promise<RequiredCheck[]> {
  const out = new Map<string, RequiredCheck>();
  for (const { name: given, source } of entries) {
    // A platform name however written (" BUILD ") is the platform's own: nobody else can report another spelling.
    const reserved = reservedName(given);
    if (reserved && source !== undefined && source !== 'platform') throw invalid(CHECK_MESSAGES.reserved(reserved));
    const name = reserved ?? given;
    const entry: RequiredCheck = source === undefined ? name : { name, source };
    const seen = out.get(name);
    if (seen !== undefined && JSON.stringify(seen) !== JSON.stringify(entry)) {
      throw invalid(PROTECTION_MESSAGES.twice(name));
    }
    out.set(name, entry);
  }
  const byKey = new Map<string, 'api' | 'agent'>();
  for (const e of out.values()) {
    const s = requiredSource(e);
    if (s === null || s === 'platform') continue;
    const [keyId, kind] = 'apiKey' in s ? [s.apiKey, 'api' as const] : [s.agentKey, 'agent' as const];
    // One key is of one kind: bound as both, one of them names no key.
    if ((byKey.get(keyId) ?? kind) !== kind) throw invalid(PROTECTION_MESSAGES.keyNotFound(keyLabel(kind), keyId));
    byKey.set(keyId, kind);
  }
  const bound = [...byKey].map(([keyId, kind]) => ({ keyId, kind }));
  if (bound.length > 0) {
    const found = await getMany<{ keyId: string; kind: string }>(bound.map((b) => storeKeys.orgKey(orgId, b.keyId)));
    bound.forEach((b, i) => {
      if (found[i]?.kind !== b.kind) {
        throw invalid(PROTECTION_MESSAGES.keyNotFound(keyLabel(b.kind), b.keyId));
      }
    });
  }
  return [...out.values()];
}
