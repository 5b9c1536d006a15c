import { getItem, keys } from '../../kernel/store/table';
import { dns } from '../../ports/dns';
import type { DnsProvider, ProviderCredentials, ProviderKind } from '../../ports/dns/port';
import { secrets } from '../../ports/secrets';

/**
 * An organization's connected DNS provider: `DNSPROVIDER` in its partition, the credentials
 * envelope-encrypted (shared/ports/secrets) under `{ purpose: 'dns', orgId }`, the zones it could list
 * when connected.
 */
export interface ProviderRecord {
  pk: string;
  sk: string;
  orgId: string;
  kind: ProviderKind;
  secret: string;
  zones: string[];
  connectedBy: string;
  connectedAt: number;
  updatedAt: number;
  version: number;
}

export const providerKey = (orgId: string) => ({ pk: keys.org(orgId).pk, sk: 'DNSPROVIDER' });

const context = (orgId: string) => ({ purpose: 'dns', orgId });

export function getProviderRecord(orgId: string, consistent = false) {
  return getItem<ProviderRecord>(providerKey(orgId), consistent);
}

export async function sealCredentials(orgId: string, credentials: ProviderCredentials): Promise<string> {
  const [sealed] = await secrets().encrypt(context(orgId), [JSON.stringify(credentials)]);
  return sealed as string;
}

/** The adapter of a stored provider, its credentials decrypted. */
export async function providerOf(record: ProviderRecord): Promise<DnsProvider> {
  const [plain] = await secrets().decrypt(context(record.orgId), [record.secret]);
  return dns().provider(record.kind, JSON.parse(plain as string) as ProviderCredentials);
}

/** The organization's connected provider, or undefined. */
export async function connectedProvider(
  orgId: string,
): Promise<{ record: ProviderRecord; provider: DnsProvider } | undefined> {
  const record = await getProviderRecord(orgId, true);
  if (!record) return undefined;
  return { record, provider: await providerOf(record) };
}
