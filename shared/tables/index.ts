import { config } from '../config';
import { awsTables } from './aws';
import { localTables } from './local';
import type { TablesPort } from './port';

export type { Capability, TablesPort } from './port';

let adapter: TablesPort | undefined;

/** The adapter for PLATFORM_TARGET (both are a few lines with no imports: picked statically). */
export function tables(): TablesPort {
  adapter ??= config.target === 'local' ? localTables() : awsTables();
  return adapter;
}
