import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { outboxFile } from '../../kernel/ground/outbox';
import type { PhonePort } from './port';

async function put(kind: 'sms' | 'voice', to: string, body: string) {
  const file = outboxFile(`${kind}.json`);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, `${JSON.stringify({ kind, to, body, at: new Date().toISOString() }, null, 2)}\n`);
}

/** One machine: each text or call is a JSON file in `OUTBOX_DIR` (`*.sms.json`, `*.voice.json`). */
export const localPhone = (): PhonePort => ({
  text: (to, body) => put('sms', to, body),
  call: (to, message) => put('voice', to, message),
});
