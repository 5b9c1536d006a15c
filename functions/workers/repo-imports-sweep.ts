import { sweepOverdueImports } from '../../shared/domains/repos/imports/sweep';
import { log } from '../../shared/kernel/ground/log';

/**
 * Ends repository imports whose job crashed (its row in lib/workers.ts: an hourly schedule on AWS,
 * a timer of the local worker runner): an import still queued or running past its job's time limit
 * is marked failed and the repository it was filling removed (shared/domains/repos/imports/sweep.ts).
 */
export async function handler(): Promise<{ swept: number; failed: number }> {
  const result = await sweepOverdueImports();
  log.info('repository imports sweep', result);
  return result;
}
