import { readEnv } from '../../../kernel/ground/env';
import type { Organization } from '../../../kernel/identity/schema';
import { findPlan } from '../../../kernel/plans/plans';
import { getItem, keys } from '../../../kernel/store/table';

/**
 * What one import may take from its source, over every byte it reads (git's transfer counted by
 * the job's relay, ./relay.ts, and the LFS objects' bodies, ./lfs.ts):
 * - at most `maxBytes`: the organization's plan's `importGb` when it sets one, else the
 *   environment's `IMPORT_MAX_BYTES`, else DEFAULT_IMPORT_GB;
 * - never under `lowSpeedBytes` a second on average over `lowSpeedSeconds` while a transfer runs
 *   (a stalled or trickling source), from `IMPORT_LOW_SPEED_BYTES` and `IMPORT_LOW_SPEED_SECONDS`
 *   or the defaults here.
 * Past either the job stops its transfer at once and fails the import with the message naming the
 * limit (job.ts removes what the import made). Tests set the environment's figures small.
 */
export const DEFAULT_IMPORT_GB = 5;
export const DEFAULT_LOW_SPEED_BYTES = 1024;
export const DEFAULT_LOW_SPEED_SECONDS = 600;

export interface ImportLimits {
  maxBytes: number;
  lowSpeedBytes: number;
  lowSpeedSeconds: number;
}

const GB = 1024 ** 3;
const MB = 1024 ** 2;

/** A positive number from the environment, or `fallback`. */
function envNumber(name: string, fallback: number): number {
  const n = Number(readEnv(name));
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export async function importLimits(orgId: string): Promise<ImportLimits> {
  const org = await getItem<Organization>(keys.org(orgId));
  const gb = org?.planId ? (await findPlan(org.planId))?.limits.importGb : undefined;
  return {
    maxBytes: gb !== undefined ? gb * GB : envNumber('IMPORT_MAX_BYTES', DEFAULT_IMPORT_GB * GB),
    lowSpeedBytes: envNumber('IMPORT_LOW_SPEED_BYTES', DEFAULT_LOW_SPEED_BYTES),
    lowSpeedSeconds: envNumber('IMPORT_LOW_SPEED_SECONDS', DEFAULT_LOW_SPEED_SECONDS),
  };
}

/** `5 GB`, `1 MB`, `1,500 bytes`: a limit as the import's message names it. */
export function sizeText(bytes: number): string {
  if (bytes >= GB && bytes % GB === 0) return `${bytes / GB} GB`;
  if (bytes >= MB && bytes % MB === 0) return `${bytes / MB} MB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}

export const LIMIT_M = {
  tooLarge: (maxBytes: number) =>
    `The source sent more than ${sizeText(maxBytes)}, the most one import may take, and the import was stopped.`,
  stalled: (l: Pick<ImportLimits, 'lowSpeedBytes' | 'lowSpeedSeconds'>) =>
    `The source sent less than ${l.lowSpeedBytes.toLocaleString('en-US')} bytes a second for ` +
    `${l.lowSpeedSeconds.toLocaleString('en-US')} seconds and the import was stopped.`,
};

/**
 * Counts the bytes an import reads and watches its speed while `armed` (a transfer runs): the
 * first limit passed calls `onBreach` once with its message, and `breach` keeps it.
 */
export class TransferMeter {
  bytes = 0;
  breach: string | undefined;
  private armed = 0;
  private windowStart = 0;
  private windowBytes = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly limits: ImportLimits,
    private readonly onBreach: (message: string) => void,
  ) {}

  /** `n` bytes more read from the source. */
  add(n: number): void {
    this.bytes += n;
    this.windowBytes += n;
    if (this.bytes > this.limits.maxBytes) this.fail(LIMIT_M.tooLarge(this.limits.maxBytes));
  }

  /** A transfer starts: its speed is watched until `disarm` (transfers may nest). */
  arm(): void {
    if (this.armed++ > 0) return;
    this.windowStart = Date.now();
    this.windowBytes = 0;
    const every = Math.min(1000, (this.limits.lowSpeedSeconds * 1000) / 4);
    this.timer = setInterval(() => this.check(), every);
    this.timer.unref();
  }

  disarm(): void {
    if (this.armed === 0 || --this.armed > 0) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops watching for good. */
  close(): void {
    this.armed = 1;
    this.disarm();
  }

  /** Each full window of `lowSpeedSeconds` must bring `lowSpeedBytes` a second on average. */
  private check(): void {
    const now = Date.now();
    const window = this.limits.lowSpeedSeconds * 1000;
    if (now - this.windowStart < window) return;
    if (this.windowBytes < this.limits.lowSpeedBytes * this.limits.lowSpeedSeconds) {
      this.fail(LIMIT_M.stalled(this.limits));
      return;
    }
    this.windowStart = now;
    this.windowBytes = 0;
  }

  private fail(message: string): void {
    if (this.breach) return;
    this.breach = message;
    this.close();
    this.onBreach(message);
  }
}
