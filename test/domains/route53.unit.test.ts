import { ChangeResourceRecordSetsCommand, ListHostedZonesCommand, Route53Client } from '@aws-sdk/client-route-53';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { ProviderRefused } from '../../shared/ports/dns/port';
import { route53Provider } from '../../shared/ports/dns/route53';

/**
 * The Route 53 adapter against the calls it must make: the organization's role assumed with its
 * external ID, hosted zones listed across pages (private ones left out), record sets upserted
 * (an apex ALIAS as an A alias to CloudFront's zone, TXT quoted) and deleted; refusals named.
 */
const sts = mockClient(STSClient);
const route53 = mockClient(Route53Client);
const role = { roleArn: 'arn:aws:iam::123456789012:role/platform-dns', externalId: 'ext-123' };

beforeEach(() => {
  sts.reset();
  route53.reset();
  sts.on(AssumeRoleCommand).resolves({
    Credentials: { AccessKeyId: 'AKIA', SecretAccessKey: 'secret', SessionToken: 'token', Expiration: new Date() },
  });
  route53
    .on(ListHostedZonesCommand, { Marker: undefined })
    .resolves({
      HostedZones: [{ Id: '/hostedzone/Z1', Name: 'example.com.', CallerReference: 'a' }],
      IsTruncated: true,
      NextMarker: 'm2',
      MaxItems: 1,
    })
    .on(ListHostedZonesCommand, { Marker: 'm2' })
    .resolves({
      HostedZones: [
        { Id: '/hostedzone/Z2', Name: 'shop.test.', CallerReference: 'b' },
        { Id: '/hostedzone/Z3', Name: 'internal.test.', CallerReference: 'c', Config: { PrivateZone: true } },
      ],
      IsTruncated: false,
      MaxItems: 1,
    });
  route53
    .on(ChangeResourceRecordSetsCommand)
    .resolves({ ChangeInfo: { Id: 'c', Status: 'PENDING', SubmittedAt: new Date() } });
});

it("assumes the organization's role with its external ID and lists public zones across pages", async () => {
  const provider = route53Provider(role);
  expect(await provider.listZones()).toEqual(['example.com', 'shop.test']);
  expect(await provider.holdsZone('shop.test')).toBe(true);
  expect(await provider.holdsZone('internal.test')).toBe(false);
  const assumed = sts.commandCalls(AssumeRoleCommand);
  expect(assumed).toHaveLength(1);
  expect(assumed[0]?.args[0].input).toMatchObject({ RoleArn: role.roleArn, ExternalId: 'ext-123' });
});

it('upserts a CNAME and a quoted TXT, and an apex ALIAS as an A alias to CloudFront', async () => {
  const provider = route53Provider(role);
  await provider.upsert('shop.test', [
    { name: 'www.shop.test', type: 'CNAME', value: 'cname.apps.example' },
    { name: '_platform-verify.www.shop.test', type: 'TXT', value: 'platform-verify=abc' },
    { name: 'shop.test', type: 'ALIAS', value: 'd111.cloudfront.net' },
  ]);
  const [call] = route53.commandCalls(ChangeResourceRecordSetsCommand);
  expect(call?.args[0].input.HostedZoneId).toBe('Z2');
  expect(call?.args[0].input.ChangeBatch?.Changes).toEqual([
    {
      Action: 'UPSERT',
      ResourceRecordSet: {
        Name: 'www.shop.test.',
        Type: 'CNAME',
        TTL: 300,
        ResourceRecords: [{ Value: 'cname.apps.example.' }],
      },
    },
    {
      Action: 'UPSERT',
      ResourceRecordSet: {
        Name: '_platform-verify.www.shop.test.',
        Type: 'TXT',
        TTL: 300,
        ResourceRecords: [{ Value: '"platform-verify=abc"' }],
      },
    },
    {
      Action: 'UPSERT',
      ResourceRecordSet: {
        Name: 'shop.test.',
        Type: 'A',
        AliasTarget: { HostedZoneId: 'Z2FDTNDATAQYW2', DNSName: 'd111.cloudfront.net.', EvaluateTargetHealth: false },
      },
    },
  ]);
  await provider.remove('shop.test', [{ name: 'www.shop.test', type: 'CNAME', value: 'cname.apps.example' }]);
  expect(
    route53.commandCalls(ChangeResourceRecordSetsCommand)[1]?.args[0].input.ChangeBatch?.Changes?.[0]?.Action,
  ).toBe('DELETE');
});

it('names what refused: the role, a zone it does not hold', async () => {
  sts
    .on(AssumeRoleCommand)
    .rejects(Object.assign(new Error('not authorized to perform sts:AssumeRole'), { name: 'AccessDenied' }));
  await expect(route53Provider(role).listZones()).rejects.toThrow(ProviderRefused);
  sts
    .on(AssumeRoleCommand)
    .resolves({ Credentials: { AccessKeyId: 'A', SecretAccessKey: 'S', SessionToken: 'T', Expiration: new Date() } });
  await expect(route53Provider(role).upsert('other.test', [])).rejects.toThrow(
    'Route 53 holds no hosted zone other.test.',
  );
});
