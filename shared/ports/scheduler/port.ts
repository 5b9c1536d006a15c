import type { NotifyMessage } from '../../domains/notifications/queue-messages';

/**
 * The scheduler port: timers of the notify worker. A timer delivers its message to the notify
 * worker's queue (`NOTIFY_QUEUE_URL`) at a time; the worker takes a message that comes late, twice
 * or after it was cancelled in its stride (its writes are conditional), so cancel is best effort.
 */
export interface SchedulerPort {
  /**
   * Delivers `message` to the notify queue at `at` (ms since the epoch; now or past: at once).
   * `key` names the timer (letters, digits, `-`, `_`, `.`, up to 64): scheduling a key again
   * replaces its timer.
   */
  schedule(key: string, at: number, message: NotifyMessage): Promise<void>;
  /** Removes a timer that has not run; one that ran or never was is no error. */
  cancel(key: string): Promise<void>;
}

/** A timer's key as both engines accept it: up to 64 of `[A-Za-z0-9_.-]`. */
export const timerKey = (...parts: (string | number)[]) =>
  parts
    .join('.')
    .replace(/[^A-Za-z0-9_.-]/g, '-')
    .slice(0, 64);
