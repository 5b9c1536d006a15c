import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { type DnsServer, startDnsServer } from '../../lib/local/dns';
import { type SmtpServer, startSmtpServer } from '../../lib/local/smtp';
import { storage } from '../../shared/ports/object-storage';
import { TestPlatform } from '../helpers/platform';
import { startQueueWorker } from '../helpers/sqs';

/**
 * A mail test file's world: the platform through the local gateway, its own artifacts bucket (the
 * mailboxes' objects), the local DNS server the domain checks ask, an outbox folder.
 */
export interface MailWorld {
  p: TestPlatform;
  dns: DnsServer;
  outbox: string;
  /** With `smtp`: the local SMTP server (SMTP_PORT) and the mail-inbound worker. */
  smtp?: SmtpServer;
  close(): Promise<void>;
}

let n = 0;
/** A name no other test file uses. */
export const unique = (base = 'm') =>
  `${base}-${process.pid.toString(36)}${Date.now().toString(36)}${(n++).toString(36)}`;

export async function startMailWorld(options: { smtp?: boolean; workers?: string[] } = {}): Promise<MailWorld> {
  process.env.ARTIFACTS_BUCKET = unique('mail');
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  const outbox = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'mail-outbox-'));
  process.env.OUTBOX_DIR = outbox;
  const dns = await startDnsServer({ port: 0 });
  process.env.DNS_SERVERS = `127.0.0.1:${dns.port}`;
  // The SMTP server first: the worker's needs include SMTP_PORT (vacation replies).
  const smtp = options.smtp ? await startSmtpServer({ port: 0 }) : undefined;
  if (smtp) process.env.SMTP_PORT = String(smtp.port);
  const running = options.smtp ? await startQueueWorker('mail-inbound', ...(options.workers ?? [])) : undefined;
  const p = await TestPlatform.start();
  return {
    p,
    dns,
    outbox,
    smtp,
    close: async () => {
      await p.close();
      await smtp?.close();
      await running?.stop();
      await dns.close();
    },
  };
}

/** A verified domain (`.test` verifies at once) of `orgId`, and a mailbox on it for `members`. */
export async function mailboxFor(p: TestPlatform, members: string[], orgId = p.org.orgId, token?: string) {
  const domain = `${unique('dom')}.test`;
  const d = await p.post(`/v1/orgs/${orgId}/mail/domains`, { domain }, { token });
  if (d.status !== 201) throw new Error(`domain: ${d.status} ${d.text}`);
  const address = `${unique('box')}@${domain}`;
  const m = await p.post(`/v1/orgs/${orgId}/mail/admin/mailboxes`, { address, name: 'Box', members }, { token });
  if (m.status !== 201) throw new Error(`mailbox: ${m.status} ${m.text}`);
  return { domain, address, mailboxId: m.body.mailbox.mailboxId as string };
}

/** The tests' one watcher of workers and queues. */
export { until } from '../helpers/until';
