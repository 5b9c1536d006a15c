import { type Session, sleep } from './context';
import type { Progress } from './progress';

interface BuildLogPage {
  lines: { t: number; m: string }[];
  cursor: string | null;
  status: string;
  error: string | null;
  done: boolean;
}

interface RuntimeLine {
  id?: string;
  t: number;
  level: string;
  message: string;
  requestId?: string;
}

const FINAL = new Set(['ready', 'error', 'canceled', 'expired', 'skipped']);
const DEFAULT_POLL_MS = 1000;

interface FollowResult {
  status: string;
  error: string | null;
  done: boolean;
}

/**
 * The build log through `GET …/build-log`, printed line by line as it comes. With `follow`, it
 * polls (from the returned cursor, waiting only when a page brought nothing) until the log is
 * done; without, it stops at the first empty page.
 */
export async function streamBuildLog(
  s: Session,
  deploymentId: string,
  options: { follow: boolean; progress?: Progress },
): Promise<FollowResult> {
  let cursor: string | undefined;
  const progress = options.progress;
  for (;;) {
    const page = (await s.api.getDeploymentsBuildLog({ orgId: s.config.orgId, deploymentId, cursor })) as BuildLogPage;
    const text = page.lines.map((l) => `${l.m}\n`).join('');
    if (progress) {
      if (text) progress.above(() => s.io.stdout(text));
      progress.setStatus(page.status);
    } else if (text) s.io.stdout(text);
    if (page.done || (!options.follow && page.lines.length === 0)) return page;
    if (page.cursor) cursor = page.cursor;
    if (page.lines.length === 0) await sleep(s.io.pollMs ?? DEFAULT_POLL_MS, s.io.signal);
    if (s.io.signal?.aborted) return page;
  }
}

const formatRuntime = (l: RuntimeLine) =>
  `${new Date(l.t).toISOString()} ${l.level.padEnd(8)} ${l.message}${l.requestId ? `  [${l.requestId}]` : ''}\n`;

/**
 * The server function's logs of the last hour, oldest first; with `follow`, from the tail route,
 * then every new line (polling from `next`, skipping ids already printed) until Ctrl-C.
 */
async function runtimeLogs(s: Session, deploymentId: string, follow: boolean): Promise<number> {
  const orgId = s.config.orgId;
  const noFunction = 'This deployment has no server function: no runtime logs.\n';
  if (!follow) {
    const page = (await s.api.getDeploymentsRuntimeLogs({ orgId, deploymentId })) as {
      available: boolean;
      lines: RuntimeLine[];
    };
    if (!page.available) s.io.stdout(noFunction);
    else s.io.stdout([...page.lines].reverse().map(formatRuntime).join(''));
    return 0;
  }
  const seen = new Set<string>();
  // The tail reads at most an hour back: start a little inside it.
  let since = Date.now() - 55 * 60_000;
  while (!s.io.signal?.aborted) {
    const tail = (await s.api.getDeploymentsRuntimeLogsTail({ orgId, deploymentId, since })) as {
      available: boolean;
      lines: RuntimeLine[];
      next: number;
      more: boolean;
    };
    if (!tail.available) {
      s.io.stdout(noFunction);
      return 0;
    }
    for (const l of tail.lines) {
      if (l.id && seen.has(l.id)) continue;
      if (l.id) seen.add(l.id);
      s.io.stdout(formatRuntime(l));
    }
    since = tail.next;
    if (!tail.more) await sleep(s.io.pollMs ?? DEFAULT_POLL_MS, s.io.signal);
  }
  return 0;
}

export async function logs(
  s: Session,
  deploymentId: string,
  options: { follow: boolean; runtime: boolean },
): Promise<number> {
  if (options.runtime) return runtimeLogs(s, deploymentId, options.follow);
  const result = await streamBuildLog(s, deploymentId, { follow: options.follow });
  if (!FINAL.has(result.status)) {
    if (!options.follow) s.io.stderr(`The build is ${result.status}: add --follow to see it to the end.\n`);
    return 0;
  }
  if (result.status === 'error') s.io.stderr(`Build failed: ${result.error ?? 'no reason given'}\n`);
  // Followed to its end: say where it ended (the log itself stops at its last step).
  else if (options.follow) s.io.stderr(`Deployment ${deploymentId}: ${result.status}.\n`);
  return result.status === 'error' ? 1 : 0;
}
