import { audienceOf } from './auth/audience';
import { readEnv } from './ground/env';

/** Configuration from the environment, read once. Nothing here does I/O. */
const env = process.env;

export const config = {
  tableName: env.TABLE_NAME ?? 'platform',
  authUrl: (env.AUTH_URL ?? 'http://localhost:3001').replace(/\/$/, ''),
  /** The audience every access token must name (`aud`): a token meant for another API is refused. */
  authAudience: audienceOf(env),
  region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'eu-central-1',
  /** `local` on the one-machine platform, `aws` when deployed. */
  target: (env.PLATFORM_TARGET === 'local' ? 'local' : 'aws') as 'local' | 'aws',
  stage: env.STAGE ?? 'dev',
};

export interface Location {
  id: string;
  name: string;
  region: string;
}

/**
 * The location registry. `LOCATIONS` is a JSON array of {id, name, region}; `DEFAULT_LOCATION`
 * names the default (the first one when unset).
 */
export const locations: Location[] = env.LOCATIONS
  ? (JSON.parse(env.LOCATIONS) as Location[])
  : [
      { id: 'fra', name: 'Frankfurt', region: 'eu-central-1' },
      { id: 'dub', name: 'Dublin', region: 'eu-west-1' },
      { id: 'iad', name: 'N. Virginia', region: 'us-east-1' },
    ];

export const defaultLocation: string = env.DEFAULT_LOCATION ?? locations[0]?.id ?? 'fra';

export const findLocation = (id: string): Location | undefined => locations.find((l) => l.id === id);

/** Name prefixes of customer tables and buckets: the functions' IAM grants are scoped to them. */
export const CUSTOMER_TABLE_PREFIX = 'cust-';
export const CUSTOMER_BUCKET_PREFIX = 'plt-';

/**
 * The platform's own bucket (source archives, build artifacts, attachments, archives, mail
 * objects): read when asked, so the local platform and tests may set it after a module loaded.
 */
export const artifactsBucket = () => readEnv('ARTIFACTS_BUCKET') ?? 'platform-artifacts';
