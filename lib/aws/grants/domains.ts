import { nagArn } from '../nag';
import type { Grants } from './grant';

/** Custom domains: DNS providers, the CDN's tenants. */
export const domainGrants: Grants<'dns' | 'cdn'> = {
  // An organization's Route 53 is reached through a role in its own account, named at runtime,
  // which it lets the platform assume with the external ID it chose (its trust policy decides).
  dns: {
    grant: ({ allow, ack }) => {
      allow({ actions: ['sts:AssumeRole'], resources: ['arn:aws:iam::*:role/*'] });
      ack(
        "DNS providers: the role is the organization's, in its own account, known only when it connects Route 53.",
        'Resource::arn:aws:iam::*:role/*',
      );
    },
  },

  // Custom domains as tenants of the multi-tenant distribution, with CloudFront-managed
  // certificates; without serving, `-` (the domains go active on DNS alone).
  cdn: {
    env: ({ platform: { serving } }) =>
      serving
        ? {
            CDN_DISTRIBUTION_ID: serving.distributionId,
            CDN_CONNECTION_GROUP_ID: serving.connectionGroupId,
            ROUTING_TARGET: serving.routingEndpoint,
          }
        : { CDN_DISTRIBUTION_ID: '-' },
    grant: ({ stack, platform: { serving }, allow, ack }) => {
      if (!serving) return;
      const tenants = stack.formatArn({
        service: 'cloudfront',
        region: '',
        resource: 'distribution-tenant',
        resourceName: '*',
      });
      allow({
        actions: [
          'cloudfront:CreateDistributionTenant',
          'cloudfront:GetDistributionTenant',
          'cloudfront:GetDistributionTenantByDomain',
          'cloudfront:UpdateDistributionTenant',
          'cloudfront:DeleteDistributionTenant',
          'cloudfront:GetManagedCertificateDetails',
        ],
        resources: [serving.distributionArn, tenants],
      });
      // A tenant's managed certificate is requested through ACM on the platform's behalf.
      allow({ actions: ['acm:RequestCertificate', 'acm:DescribeCertificate'], resources: ['*'] });
      ack(
        'Distribution tenants are made per custom domain at runtime: known by kind only.',
        `Resource::${nagArn(tenants)}`,
      );
      ack(
        'ACM certificates of tenants are requested at runtime: they have no name to grant beforehand.',
        'Resource::*',
      );
    },
  },
};
