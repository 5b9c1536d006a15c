import { readEnv } from './env';

/**
 * Structured JSON log lines on stdout (CloudWatch Logs on AWS). Callers pass only identifiers
 * and error descriptions: never request bodies, headers or tokens.
 */
type Level = 'debug' | 'info' | 'warn' | 'error';

function write(level: Level, message: string, fields: Record<string, unknown>): void {
  if (readEnv('LOG_LEVEL') === 'silent') return;
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  if (level === 'error' || level === 'warn') process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

export const log = {
  info: (message: string, fields: Record<string, unknown> = {}) => write('info', message, fields),
  warn: (message: string, fields: Record<string, unknown> = {}) => write('warn', message, fields),
  error: (message: string, fields: Record<string, unknown> = {}) => write('error', message, fields),
};

/** An error as it may be logged: its name, message and stack, nothing it carries besides. */
export function describeError(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { value: String(err) };
}

/** An error in one line, for a log field: its name and message, no stack. */
export const errorLine = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));
