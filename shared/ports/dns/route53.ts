import {
  type Change,
  ChangeResourceRecordSetsCommand,
  ListHostedZonesCommand,
  Route53Client,
} from '@aws-sdk/client-route-53';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import { type DnsProvider, type DnsRecord, ProviderRefused } from './port';

/** CloudFront's hosted zone, the target of apex aliases to a distribution. */
const CLOUDFRONT_ZONE = 'Z2FDTNDATAQYW2';

const dot = (name: string) => (name.endsWith('.') ? name : `${name}.`);
const bare = (name: string) => name.replace(/\.$/, '').toLowerCase();

/**
 * Route 53 in the organization's own account: a role it made for the platform, assumed with the
 * external ID it gave (STS, the SDK's own STS client), once per adapter.
 */
export function route53Provider(credentials: { roleArn: string; externalId: string }): DnsProvider {
  let client: Promise<Route53Client> | undefined;
  const route53 = () => {
    client ??= (async () => {
      const sts = new STSClient(sdkSettings('dns'));
      try {
        const out = await sts.send(
          new AssumeRoleCommand({
            RoleArn: credentials.roleArn,
            ExternalId: credentials.externalId,
            RoleSessionName: 'platform-dns',
            DurationSeconds: 900,
          }),
        );
        const c = out.Credentials;
        if (!c?.AccessKeyId || !c.SecretAccessKey) throw new ProviderRefused('STS gave no credentials for the role.');
        const creds = { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken };
        return new Route53Client({ ...sdkSettings('dns'), credentials: creds });
      } catch (err) {
        client = undefined;
        if (err instanceof ProviderRefused) throw err;
        throw new ProviderRefused(`The role could not be assumed: ${(err as Error).message}`);
      }
    })();
    return client;
  };

  const zones = async () => {
    const found: { id: string; name: string }[] = [];
    let marker: string | undefined;
    do {
      const out = await (await route53()).send(new ListHostedZonesCommand({ Marker: marker })).catch((err: Error) => {
        throw new ProviderRefused(`Route 53 refused to list hosted zones: ${err.message}`);
      });
      for (const z of out.HostedZones ?? []) {
        if (z.Id && z.Name && !z.Config?.PrivateZone)
          found.push({ id: z.Id.replace(/^\/hostedzone\//, ''), name: bare(z.Name) });
      }
      marker = out.IsTruncated ? out.NextMarker : undefined;
    } while (marker);
    return found;
  };

  const change = async (zone: string, records: DnsRecord[], action: 'UPSERT' | 'DELETE') => {
    const hosted = (await zones()).find((z) => z.name === bare(zone));
    if (!hosted) throw new ProviderRefused(`Route 53 holds no hosted zone ${zone}.`);
    const changes: Change[] = records.map((r) => ({
      Action: action,
      ResourceRecordSet:
        r.type === 'ALIAS'
          ? {
              Name: dot(r.name),
              Type: 'A',
              AliasTarget: { HostedZoneId: CLOUDFRONT_ZONE, DNSName: dot(r.value), EvaluateTargetHealth: false },
            }
          : {
              Name: dot(r.name),
              Type: r.type,
              TTL: 300,
              ResourceRecords: [{ Value: r.type === 'TXT' ? JSON.stringify(r.value) : dot(r.value) }],
            },
    }));
    try {
      await (await route53()).send(
        new ChangeResourceRecordSetsCommand({ HostedZoneId: hosted.id, ChangeBatch: { Changes: changes } }),
      );
    } catch (err) {
      // Deleting what is no longer there is done.
      if (action === 'DELETE' && (err as Error).name === 'InvalidChangeBatch') return;
      throw new ProviderRefused(`Route 53 refused the change: ${(err as Error).message}`);
    }
  };

  return {
    listZones: async () => (await zones()).map((z) => z.name),
    holdsZone: async (zone) => (await zones()).some((z) => z.name === bare(zone)),
    upsert: (zone, records) => change(zone, records, 'UPSERT'),
    remove: (zone, records) => change(zone, records, 'DELETE'),
  };
}
