import type { Node } from 'constructs';
import type { PlatformStackProps } from './platform-stack';

/** The settings of a deployment, as given with `cdk -c key=value`, in cdk.json, or the environment. */
export type PlatformSettings = Omit<
  Pick<
    PlatformStackProps,
    | 'authUrl'
    | 'stage'
    | 'authAudience'
    | 'corsOrigins'
    | 'locations'
    | 'defaultLocation'
    | 'mailFrom'
    | 'phoneOrigination'
    | 'cognitoUserPoolId'
    | 'appsDomain'
    | 'appsHostedZoneId'
    | 'appsCertificateArn'
    | 'webClientId'
  >,
  'authAudience'
> & { authAudience: string | undefined };

/**
 * Reads the deployment's settings from CDK context. `-c` gives strings, cdk.json gives JSON
 * values, so lists are accepted as arrays, JSON text or comma-separated text.
 */
export function platformSettings(node: Node, env: NodeJS.ProcessEnv = process.env): PlatformSettings {
  const text = (key: string): string | undefined => {
    const value: unknown = node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return undefined;
    return typeof value === 'string' ? value : JSON.stringify(value);
  };
  const list = (key: string): string[] | undefined => {
    const value: unknown = node.tryGetContext(key);
    if (Array.isArray(value)) return value.map(String);
    const raw = text(key)?.trim();
    if (!raw) return undefined;
    if (raw.startsWith('[')) return (JSON.parse(raw) as unknown[]).map(String);
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  };

  const locations = text('locations');
  // Fail at synth, not at the first cold start, if the registry is not a JSON array.
  if (locations !== undefined && !Array.isArray(JSON.parse(locations))) {
    throw new Error('Context "locations" must be a JSON array of {id, name, region}');
  }
  return {
    authUrl: text('authUrl') ?? env.AUTH_URL ?? 'https://auth.example.com',
    stage: text('stage'),
    authAudience: text('authAudience') ?? env.AUTH_AUDIENCE,
    corsOrigins: list('corsOrigins'),
    locations,
    defaultLocation: text('defaultLocation'),
    mailFrom: text('mailFrom') ?? env.MAIL_FROM,
    phoneOrigination: text('phoneOrigination') ?? env.PHONE_ORIGINATION,
    cognitoUserPoolId: text('cognitoUserPoolId') ?? env.COGNITO_USER_POOL_ID,
    appsDomain: text('appsDomain'),
    appsHostedZoneId: text('appsHostedZoneId'),
    appsCertificateArn: text('appsCertificateArn'),
    webClientId: text('webClientId') ?? env.WEB_CLIENT_ID,
  };
}
