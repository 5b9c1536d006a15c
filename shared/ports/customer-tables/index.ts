import { config } from '../../kernel/config';
import type { TablesPort } from './port';

export type { Capability, TablesPort } from './port';

let adapter: Promise<TablesPort> | undefined;

// The local adapter's path is computed: the functions' bundler leaves it out of the Lambda bundles.
const LOCAL_ADAPTER = './local';

/** The adapter for PLATFORM_TARGET, loaded on first use. */
export function tables(): Promise<TablesPort> {
  adapter ??=
    config.target === 'local'
      ? (import(LOCAL_ADAPTER) as Promise<{ localTables: () => TablesPort }>).then((m) => m.localTables())
      : import('./aws').then((m) => m.awsTables());
  return adapter;
}
