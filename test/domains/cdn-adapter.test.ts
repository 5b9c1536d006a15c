import {
  CloudFrontClient,
  CreateDistributionTenantCommand,
  DeleteDistributionTenantCommand,
  EntityAlreadyExists,
  EntityNotFound,
  GetDistributionTenantByDomainCommand,
  GetDistributionTenantCommand,
  GetManagedCertificateDetailsCommand,
  UpdateDistributionTenantCommand,
} from '@aws-sdk/client-cloudfront';
import { mockClient } from 'aws-sdk-client-mock';
import { awsCdn } from '../../shared/ports/cdn/aws';

/**
 * The cdn port on AWS: each custom domain a tenant of the multi-tenant distribution, with a
 * CloudFront-managed certificate validated by CloudFront; none without a distribution.
 */
const cf = mockClient(CloudFrontClient);
beforeEach(() => {
  cf.reset();
  process.env.CDN_DISTRIBUTION_ID = 'EDIST';
  process.env.CDN_CONNECTION_GROUP_ID = 'cg_1';
});
afterAll(() => {
  cf.restore();
  delete process.env.CDN_DISTRIBUTION_ID;
  delete process.env.CDN_CONNECTION_GROUP_ID;
});

test('a domain becomes a tenant with a managed certificate, in the connection group', async () => {
  cf.on(CreateDistributionTenantCommand).resolves({ DistributionTenant: { Id: 'dt_1' } });
  expect(await awsCdn().addDomain('shop.example.com', 0)).toEqual({ tenantId: 'dt_1' });
  expect(cf.commandCalls(CreateDistributionTenantCommand)[0]?.args[0].input).toEqual({
    DistributionId: 'EDIST',
    Name: 'shop.example.com',
    Domains: [{ Domain: 'shop.example.com' }],
    ConnectionGroupId: 'cg_1',
    Enabled: true,
    ManagedCertificateRequest: { ValidationTokenHost: 'cloudfront', PrimaryDomainName: 'shop.example.com' },
  });
});

test('a tenant made before (a retried verify) is found by its domain', async () => {
  cf.on(CreateDistributionTenantCommand).rejects(new EntityAlreadyExists({ message: 'exists', $metadata: {} }));
  cf.on(GetDistributionTenantByDomainCommand).resolves({ DistributionTenant: { Id: 'dt_9' } });
  expect(await awsCdn().addDomain('shop.example.com', 0)).toEqual({ tenantId: 'dt_9' });
});

test('no distribution (a stack without an apps domain): no tenant, no call', async () => {
  process.env.CDN_DISTRIBUTION_ID = '-';
  expect(await awsCdn().addDomain('shop.example.com', 0)).toBeUndefined();
  expect(cf.calls()).toHaveLength(0);
});

test.each([
  ['issued', { status: 'issued', certificateArn: 'arn:aws:acm:us-east-1:1:certificate/c' }],
  ['pending-validation', { status: 'pending', detail: 'The certificate is waiting for its validation by CloudFront.' }],
  ['validation-timed-out', { status: 'failed', detail: 'The certificate is validation-timed-out.' }],
] as const)('a certificate %s', async (status, expected) => {
  cf.on(GetManagedCertificateDetailsCommand, { Identifier: 'dt_1' }).resolves({
    ManagedCertificateDetails: { CertificateStatus: status, CertificateArn: 'arn:aws:acm:us-east-1:1:certificate/c' },
  });
  expect(await awsCdn().certificate('dt_1', 0)).toEqual(expected);
});

test('removal disables the tenant, then deletes it with the new ETag; one gone is fine', async () => {
  cf.on(GetDistributionTenantCommand).resolves({
    ETag: 'E1',
    DistributionTenant: {
      Id: 'dt_1',
      Enabled: true,
      DistributionId: 'EDIST',
      Domains: [{ Domain: 'shop.example.com' }],
    },
  });
  cf.on(UpdateDistributionTenantCommand).resolves({ ETag: 'E2' });
  cf.on(DeleteDistributionTenantCommand).resolves({});
  await awsCdn().removeDomain('dt_1');
  expect(cf.commandCalls(UpdateDistributionTenantCommand)[0]?.args[0].input).toEqual({
    Id: 'dt_1',
    IfMatch: 'E1',
    Enabled: false,
    DistributionId: 'EDIST',
    Domains: [{ Domain: 'shop.example.com' }],
  });
  expect(cf.commandCalls(DeleteDistributionTenantCommand)[0]?.args[0].input).toEqual({ Id: 'dt_1', IfMatch: 'E2' });

  cf.reset();
  cf.on(GetDistributionTenantCommand).rejects(new EntityNotFound({ message: 'gone', $metadata: {} }));
  await expect(awsCdn().removeDomain('dt_1')).resolves.toBeUndefined();
});
