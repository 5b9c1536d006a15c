import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The sign-in code the identity provider mailed to `email`: the newest message to it in the run's
 * outbox (`OUTBOX_DIR`, where the local platform's mail lands).
 */
export function mailedCode(email: string): string {
  const dir = process.env.OUTBOX_DIR as string;
  const mail = readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .reverse()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .find((text) => new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}\\r?$`, 'm').test(text));
  const code = /^Subject: Your sign-in code: (\d{8})\r?$/m.exec(mail ?? '')?.[1];
  if (!code) throw new Error(`no sign-in code mailed to ${email}`);
  return code;
}
