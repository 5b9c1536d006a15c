import { definePort } from '../adapter';
import type { ArtifactsPort } from './port';

export type { ArtifactsPort } from './port';

// Computed: the functions' bundler leaves the local adapter out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** What builds leave: the artifacts bucket on AWS, folders under `DATA_DIR` on one machine. */
export const artifacts = definePort<ArtifactsPort>({
  aws: () => import('./aws').then((m) => m.awsArtifacts()),
  local: () => (import(LOCAL_ADAPTER) as Promise<typeof import('./local')>).then((m) => m.localArtifacts()),
});
