import { pendingSweeps, sweep } from '../../shared/domains/pages/remove';
import { log } from '../../shared/kernel/ground/log';

/**
 * Finishes deleted page subtrees that their delete request left (its row in lib/workers.ts: an
 * hourly schedule on AWS, a timer of the local worker runner): a delete hides the subtree at
 * once and removes what its budget allows; each marker left (a very large subtree, a failure) is
 * swept here, oldest first, the same steps, safe to repeat. Markers younger than a minute are
 * left to the request still sweeping them.
 */
const BUDGET_MS = 8 * 60_000;
const SETTLE_MS = 60_000;

export async function handler(): Promise<{ swept: number; left: number }> {
  const deadline = Date.now() + BUDGET_MS;
  let swept = 0;
  let left = 0;
  for (const marker of await pendingSweeps()) {
    if (Date.now() - marker.at < SETTLE_MS) continue;
    if (Date.now() > deadline || !(await sweep(marker.orgId, marker.pageId, deadline))) left++;
    else swept++;
  }
  log.info('pages sweep', { swept, left });
  return { swept, left };
}
