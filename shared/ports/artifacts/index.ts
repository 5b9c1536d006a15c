import { config } from '../../kernel/config';
import type { ArtifactsPort } from './port';

export type { ArtifactsPort } from './port';

let adapter: Promise<ArtifactsPort> | undefined;

// As in shared/ports/builds: the local adapter (file system) stays out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** The adapter for PLATFORM_TARGET, made on first use. */
export function artifacts(): Promise<ArtifactsPort> {
  adapter ??=
    config.target === 'local'
      ? (import(LOCAL_ADAPTER) as Promise<{ localArtifacts: () => ArtifactsPort }>).then((m) => m.localArtifacts())
      : import('./aws').then((m) => m.awsArtifacts());
  return adapter;
}
