import { readEnv } from '../../kernel/ground/env';
import type { CdnPort } from './port';

const PREFIX = 'local-';

/**
 * No CDN on one machine; with `LOCAL_CERTIFICATE_SECONDS`, a stand-in whose certificates are issued
 * that long after the domain was added (the tenant id says when, so nothing is kept).
 */
export const localCdn = (): CdnPort => ({
  async addDomain(_hostname, now) {
    const seconds = Number(readEnv('LOCAL_CERTIFICATE_SECONDS'));
    if (!Number.isFinite(seconds) || seconds <= 0) return undefined;
    return { tenantId: `${PREFIX}${now + seconds * 1000}` };
  },
  async certificate(tenantId, now) {
    const at = Number(tenantId.slice(PREFIX.length));
    if (!tenantId.startsWith(PREFIX) || !Number.isFinite(at)) return { status: 'failed', detail: 'Unknown tenant.' };
    return now >= at
      ? { status: 'issued', certificateArn: `arn:local:certificate/${at}` }
      : { status: 'pending', detail: 'The certificate is being issued.' };
  },
  async removeDomain() {},
});
