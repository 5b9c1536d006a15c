import { addDomainCounts } from '../../shared/domains/insights/counters';
import { describeError, log } from '../../shared/kernel/ground/log';
import { type BuildStateChange, buildOfEvent } from '../../shared/ports/builds/events';

const FAILED = new Set(['FAILED', 'FAULT', 'TIMED_OUT']);

/**
 * Deployment builds in the analytics counters (its row in lib/workers.ts: the same CodeBuild
 * events the build-events worker moves deployments by): a build that ended adds one succeeded or
 * failed build and its seconds, to its organization's and project's hour. Each build's end counts
 * once (a marker named by the build and status). Analytics never hold a deployment back: a
 * failure here is logged, not thrown, so the local builder's delivery is never refused by it.
 */
export async function handler(event: BuildStateChange): Promise<{ counted: boolean }> {
  const status = event.detail['build-status'];
  if (status !== 'SUCCEEDED' && !FAILED.has(status)) return { counted: false };
  const of = buildOfEvent(event);
  if (!of) return { counted: false };
  const at = Date.now();
  const seconds = of.startedAt ? Math.max(0, Math.round((at - of.startedAt) / 1000)) : 0;
  try {
    const parts = await addDomainCounts(
      `build:${event.detail['build-id']}:${status}`,
      { orgId: of.orgId, projectId: of.projectId, at },
      status === 'SUCCEEDED'
        ? { buildsSucceeded: 1, buildSeconds: seconds }
        : { buildsFailed: 1, buildSeconds: seconds },
    );
    return { counted: parts > 0 };
  } catch (err) {
    log.warn('analytics of a build not counted', { buildId: event.detail['build-id'], error: describeError(err) });
    return { counted: false };
  }
}
