import { definePort } from '../adapter';
import type { StoragePort } from './port';

export type * from './port';

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** Object storage: S3 (its client a chunk of its own), or the local S3 server with a settings shim. */
export const storage = definePort<StoragePort>({
  aws: () => import('./aws').then((m) => m.awsStorage()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localStorage()),
});

export { RESERVED_CORS_ID, splitCors, uploadCorsRule } from './cors';
