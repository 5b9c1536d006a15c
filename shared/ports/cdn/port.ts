/** A custom domain's certificate at the CDN. */
export interface CertificateState {
  status: 'issued' | 'pending' | 'failed';
  certificateArn?: string;
  /** What the CDN says of a pending or failed certificate. */
  detail?: string;
}

/**
 * The CDN port: custom domains served with certificates of their own. AWS: each domain a tenant of
 * the multi-tenant CloudFront distribution (SaaS Manager) with a CloudFront-managed certificate,
 * validated over HTTP once the domain routes to CloudFront. One machine: the local edge serves plain
 * http, so there is no certificate to wait for unless `LOCAL_CERTIFICATE_SECONDS` asks for one
 * (the wait a certificate takes, for trying the `verifying` state).
 */
export interface CdnPort {
  /** Makes the domain a tenant (again: the same one); undefined where no CDN serves domains. */
  addDomain(hostname: string, now: number): Promise<{ tenantId: string } | undefined>;
  certificate(tenantId: string, now: number): Promise<CertificateState>;
  /** Removes the tenant (gone already: nothing to do). */
  removeDomain(tenantId: string): Promise<void>;
}
