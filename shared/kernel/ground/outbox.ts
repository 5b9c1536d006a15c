import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { readEnv } from './env';

let sequence = 0;

/**
 * A new file in the local outbox (`OUTBOX_DIR`), where the one-machine mail and phone adapters
 * put what AWS would send: named `<time>-<sequence>-<random>.<extension>`, so a sorted listing is
 * in the order things were sent.
 */
export function outboxFile(extension: string): string {
  const dir = readEnv('OUTBOX_DIR');
  if (!dir) throw new Error('OUTBOX_DIR is not set.');
  sequence = (sequence + 1) % 1_000_000;
  const name = `${String(Date.now()).padStart(15, '0')}-${String(sequence).padStart(6, '0')}-${randomBytes(3).toString('hex')}`;
  return join(dir, `${name}.${extension}`);
}
