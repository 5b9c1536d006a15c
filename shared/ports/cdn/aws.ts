import {
  CloudFrontClient,
  CreateDistributionTenantCommand,
  DeleteDistributionTenantCommand,
  GetDistributionTenantByDomainCommand,
  GetDistributionTenantCommand,
  GetManagedCertificateDetailsCommand,
  UpdateDistributionTenantCommand,
} from '@aws-sdk/client-cloudfront';
import { readEnv } from '../../kernel/ground/env';
import { log } from '../../kernel/ground/log';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import type { CdnPort, CertificateState } from './port';

let client: CloudFrontClient | undefined;
// CloudFront's API is global (us-east-1).
const cloudfront = () => {
  client ??= new CloudFrontClient({ ...sdkSettings('cdn'), region: 'us-east-1' });
  return client;
};
const named = (err: unknown, ...names: string[]) => names.includes((err as Error).name);

/** A tenant's name: the hostname, as CloudFront allows it (letters, digits, `.`, `-`; 3–128). */
export const tenantName = (hostname: string) => hostname.replace(/[^a-z0-9.-]/g, '-').slice(0, 128);

/**
 * CloudFront SaaS Manager: the multi-tenant distribution (`CDN_DISTRIBUTION_ID`, `-` when the stack
 * serves no domains) in its connection group (`CDN_CONNECTION_GROUP_ID`), one tenant per custom
 * domain with a CloudFront-managed certificate validated over HTTP by CloudFront itself.
 */
export const awsCdn = (): CdnPort => ({
  async addDomain(hostname) {
    const distributionId = readEnv('CDN_DISTRIBUTION_ID');
    if (!distributionId || distributionId === '-') return undefined;
    try {
      const out = await cloudfront().send(
        new CreateDistributionTenantCommand({
          DistributionId: distributionId,
          Name: tenantName(hostname),
          Domains: [{ Domain: hostname }],
          ...(readEnv('CDN_CONNECTION_GROUP_ID') ? { ConnectionGroupId: readEnv('CDN_CONNECTION_GROUP_ID') } : {}),
          Enabled: true,
          ManagedCertificateRequest: { ValidationTokenHost: 'cloudfront', PrimaryDomainName: hostname },
        }),
      );
      return { tenantId: out.DistributionTenant?.Id as string };
    } catch (err) {
      if (!named(err, 'EntityAlreadyExists', 'CNAMEAlreadyExists')) throw err;
      const found = await cloudfront().send(new GetDistributionTenantByDomainCommand({ Domain: hostname }));
      if (!found.DistributionTenant?.Id) throw err;
      return { tenantId: found.DistributionTenant.Id };
    }
  },

  async certificate(tenantId): Promise<CertificateState> {
    const out = await cloudfront().send(new GetManagedCertificateDetailsCommand({ Identifier: tenantId }));
    const details = out.ManagedCertificateDetails;
    const status = details?.CertificateStatus;
    if (status === 'issued') return { status: 'issued', certificateArn: details?.CertificateArn };
    if (status === 'pending-validation' || status === undefined) {
      return { status: 'pending', detail: 'The certificate is waiting for its validation by CloudFront.' };
    }
    return { status: 'failed', detail: `The certificate is ${status}.` };
  },

  async removeDomain(tenantId) {
    try {
      let read = await cloudfront().send(new GetDistributionTenantCommand({ Identifier: tenantId }));
      const tenant = read.DistributionTenant;
      if (tenant?.Enabled) {
        const updated = await cloudfront().send(
          new UpdateDistributionTenantCommand({
            Id: tenantId,
            IfMatch: read.ETag,
            Enabled: false,
            DistributionId: tenant.DistributionId,
            Domains: tenant.Domains?.map((d) => ({ Domain: d.Domain as string })),
          }),
        );
        read = { ...read, ETag: updated.ETag };
      }
      await cloudfront().send(new DeleteDistributionTenantCommand({ Id: tenantId, IfMatch: read.ETag }));
    } catch (err) {
      if (named(err, 'EntityNotFound', 'NoSuchResource')) return;
      // Disabled but not yet deployed: the tenant serves nothing; its removal is tried again later.
      if (named(err, 'ResourceNotDisabled', 'PreconditionFailed', 'InvalidIfMatchVersion')) {
        log.warn('cdn_tenant_left', { tenantId, reason: (err as Error).name });
        return;
      }
      throw err;
    }
  },
});
