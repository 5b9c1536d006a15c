/**
 * How every AWS SDK client of the platform retries and waits, in one table: attempts (the SDK's
 * standard retry mode: exponential backoff with full jitter, throttling and transient errors only)
 * and timeouts, per outside system. A call's worst case (attempts × (connect + request) plus the
 * backoff between them) stays well inside a route function's 30 s, so a dead or stalled backend
 * answers 502 `The backend request failed. Try again.` instead of a hang; throttling that outlasts
 * the retries answers 429 (shared/kernel/ground/backend-errors.ts).
 *
 * `requestMs` is the socket's idle time, not the whole call's: a long stream that keeps moving is
 * not cut. `throwOnRequestTimeout`: without it, the SDK only logs a warning when the time is up and
 * keeps waiting. Lambda invocations of customer functions are not here: their time is the function's own.
 */
export type SdkClientName =
  | 'table'
  | 'customerTables'
  | 'objectStorage'
  | 'queue'
  | 'scheduler'
  | 'builds'
  | 'git'
  | 'secrets'
  | 'mail'
  | 'signin'
  | 'cdn'
  | 'dns'
  | 'metrics'
  | 'logs'
  | 'phone';

interface Setting {
  attempts: number;
  connectMs: number;
  requestMs: number;
}

export const SDK_SETTINGS: Record<SdkClientName, Setting> = {
  table: { attempts: 3, connectMs: 1_000, requestMs: 6_000 },
  customerTables: { attempts: 3, connectMs: 1_000, requestMs: 6_000 },
  objectStorage: { attempts: 3, connectMs: 1_500, requestMs: 6_000 },
  queue: { attempts: 3, connectMs: 1_000, requestMs: 5_000 },
  scheduler: { attempts: 3, connectMs: 1_000, requestMs: 5_000 },
  builds: { attempts: 3, connectMs: 1_500, requestMs: 6_000 },
  git: { attempts: 3, connectMs: 1_500, requestMs: 6_000 },
  secrets: { attempts: 3, connectMs: 1_000, requestMs: 5_000 },
  mail: { attempts: 3, connectMs: 1_500, requestMs: 6_000 },
  signin: { attempts: 3, connectMs: 1_500, requestMs: 5_000 },
  cdn: { attempts: 3, connectMs: 1_500, requestMs: 6_000 },
  dns: { attempts: 3, connectMs: 1_500, requestMs: 6_000 },
  metrics: { attempts: 2, connectMs: 1_500, requestMs: 5_000 },
  logs: { attempts: 3, connectMs: 1_500, requestMs: 5_000 },
  phone: { attempts: 3, connectMs: 1_500, requestMs: 5_000 },
};

/** The constructor settings of `name`'s client (spread first: a client's own settings follow). */
export function sdkSettings(name: SdkClientName) {
  const s = SDK_SETTINGS[name];
  return {
    maxAttempts: s.attempts,
    retryMode: 'standard' as const,
    requestHandler: { connectionTimeout: s.connectMs, requestTimeout: s.requestMs, throwOnRequestTimeout: true },
  };
}

/** The longest a call of `name` can take before it fails (every attempt timing out, backoff aside). */
export const worstCaseMs = (name: SdkClientName) =>
  SDK_SETTINGS[name].attempts * (SDK_SETTINGS[name].connectMs + SDK_SETTINGS[name].requestMs);
