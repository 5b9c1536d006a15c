import { sweepExpired } from '../../shared/domains/deployments/retention';
import { log } from '../../shared/kernel/ground/log';

/**
 * The hourly retention sweep (its row in lib/workers.ts: an EventBridge schedule on AWS, a timer
 * of the local worker runner): deployments whose expiry day has come become `expired`
 * (shared/domains/deployments/retention.ts).
 */
export async function handler(): Promise<{ expired: number; postponed: number }> {
  const { expired, postponed } = await sweepExpired();
  log.info('retention sweep', { expired: expired.length, postponed: postponed.length });
  return { expired: expired.length, postponed: postponed.length };
}
