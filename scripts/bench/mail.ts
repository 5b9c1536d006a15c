import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchPlatform } from './platform';
import { median, ms, ratio, verdict } from './stats';

/**
 * Mail: INBOX page 1 (`GET …/threads`, 50 threads, through the local gateway) of a mailbox of
 * 10,000 threads against one of 100, both seeded through the store as filing leaves them (the
 * thread and its INBOX index item), alternated; and ingest per message: an SMTP client's delivery
 * to the local SMTP server until the thread is listed (outbox file, object, queue, the mail-inbound
 * worker, filing), against postal-mime's parse alone of the same message.
 */
export interface MailFigures {
  runs: number;
  sizes: [number, number];
  page: { small: number; large: number };
  ingest: { messages: number; median: number; parse: number };
  seedMs: number;
}

export async function benchMail(platform: BenchPlatform, options: { runs?: number } = {}): Promise<MailFigures> {
  const runs = options.runs ?? 30;
  const env = process.env;
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-mail-'));
  const stops: (() => Promise<void> | void)[] = [() => rmSync(dataDir, { recursive: true, force: true })];
  try {
    env.ARTIFACTS_BUCKET = `bench-mail-${randomBytes(4).toString('hex')}`;
    env.OUTBOX_DIR = join(dataDir, 'outbox');
    const [{ storage }, { createGateway, listen }, { addDomain }, { createMailbox }] = await Promise.all([
      import('../../shared/ports/object-storage'),
      import('../../lib/local/gateway'),
      import('../../shared/domains/mail/domains'),
      import('../../shared/domains/mail/admin'),
    ]);
    await storage().createBucket(env.ARTIFACTS_BUCKET);
    const gateway = createGateway();
    const port = await listen(gateway, 0);
    stops.push(() => {
      gateway.closeAllConnections();
      gateway.close();
    });
    const domain = `bench-${randomBytes(4).toString('hex')}.test`;
    await addDomain(platform.orgId, domain);
    const box = (name: string) =>
      createMailbox(platform.orgId, {
        address: `${name}@${domain}`,
        name,
        members: [platform.userId],
        kind: 'personal',
      });
    const [small, large, inbox] = [await box('small'), await box('large'), await box('inbox')];
    const t0 = performance.now();
    await seed(small.mailboxId, 100);
    await seed(large.mailboxId, 10_000);
    const seedMs = performance.now() - t0;

    const page = async (mailboxId: string) => {
      const t = performance.now();
      const res = await fetch(
        `http://127.0.0.1:${port}/v1/orgs/${platform.orgId}/mail/mailboxes/${mailboxId}/threads?limit=50`,
        {
          headers: { authorization: `Bearer ${platform.jwt}` },
        },
      );
      const body = (await res.json()) as { threads?: unknown[] };
      if (res.status !== 200 || body.threads?.length !== 50) throw new Error(`bench INBOX answered ${res.status}`);
      return performance.now() - t;
    };
    const smallRuns: number[] = [];
    const largeRuns: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const [a, b] = [await page(small.mailboxId), await page(large.mailboxId)];
      if (i < 3) continue;
      smallRuns.push(a);
      largeRuns.push(b);
    }

    // Ingest: SMTP in, the worker files, the thread is listed.
    const smtp = await startMailIn(stops);
    const { createTransport } = await import('nodemailer');
    const MailComposer = (await import('nodemailer/lib/mail-composer')).default;
    const PostalMime = (await import('postal-mime')).default;
    const client = createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true, pool: true });
    stops.push(() => client.close());
    const ingest: number[] = [];
    const parse: number[] = [];
    for (let i = 0; i < 20; i++) {
      const subject = `Bench ingest ${i} ${randomBytes(3).toString('hex')}`;
      const raw = await new MailComposer({
        from: 'Sender <sender@outside.example>',
        to: inbox.address,
        subject,
        text: 'A paragraph of text.\n'.repeat(40),
        html: `<p>${'A paragraph of text. '.repeat(40)}</p>`,
        attachments: [{ filename: 'notes.txt', content: 'x'.repeat(20_000) }],
      })
        .compile()
        .build();
      const p0 = performance.now();
      await PostalMime.parse(raw);
      parse.push(performance.now() - p0);
      const t = performance.now();
      // 451 is a temporary refusal (the local S3 server's rare 500): a mail client tries again.
      await client
        .sendMail({ envelope: { from: 'sender@outside.example', to: [inbox.address] }, raw })
        .catch((err: { responseCode?: number }) => {
          if (err.responseCode !== 451) throw err;
          return client.sendMail({ envelope: { from: 'sender@outside.example', to: [inbox.address] }, raw });
        });
      for (;;) {
        const res = await fetch(
          `http://127.0.0.1:${port}/v1/orgs/${platform.orgId}/mail/mailboxes/${inbox.mailboxId}/threads?limit=1`,
          { headers: { authorization: `Bearer ${platform.jwt}` } },
        );
        const body = (await res.json()) as { threads?: { subject: string }[] };
        if (body.threads?.[0]?.subject === subject) break;
        if (performance.now() - t > 30_000) throw new Error('bench ingest: the message was not listed in 30 s');
        await new Promise((r) => setTimeout(r, 5));
      }
      ingest.push(performance.now() - t);
    }
    return {
      runs,
      sizes: [100, 10_000],
      page: { small: median(smallRuns), large: median(largeRuns) },
      ingest: { messages: ingest.length, median: median(ingest), parse: median(parse) },
      seedMs,
    };
  } finally {
    for (const s of stops.reverse()) await s();
  }
}

/** `count` INBOX threads of one message each, written as filing leaves them (thread, index item). */
async function seed(mailboxId: string, count: number): Promise<void> {
  const [{ BatchWriteCommand }, { db }, { TABLE }, { summaryOf, threadKey }, { newId }] = await Promise.all([
    import('@aws-sdk/lib-dynamodb'),
    import('../../shared/kernel/store/client'),
    import('../../shared/kernel/store/table'),
    import('../../shared/domains/mail/threads'),
    import('../../shared/kernel/store/ids'),
  ]);
  const now = Date.now();
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const at = now - i * 60_000;
    const thread = {
      threadId: newId('thr_', at),
      subject: `Seeded thread ${i}`,
      snippet: 'A seeded message.',
      from: [{ name: 'Sender', address: `s${i % 50}@outside.example` }],
      to: [{ name: '', address: 'me@bench.test' }],
      labels: ['INBOX'],
      unread: i % 3 === 0,
      messageIds: [newId('msg_', at)],
      lastAt: at,
      hasAttachment: false,
      received: true,
      version: 1,
    };
    items.push({ ...threadKey(mailboxId, thread.threadId), ...thread });
    items.push({
      pk: `MBX#${mailboxId}`,
      sk: `I#INBOX#${String(at).padStart(15, '0')}#${thread.threadId}`,
      ...summaryOf(thread),
    });
  }
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++] as Record<string, unknown>[];
      let pending: Record<string, unknown>[] | undefined = batch.map((Item) => ({ PutRequest: { Item } }));
      while (pending && pending.length > 0) {
        const out = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE()]: pending } }));
        pending = out.UnprocessedItems?.[TABLE()] as Record<string, unknown>[] | undefined;
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
}

export function renderMail(f: MailFigures): string {
  const pageRatio = f.page.large / f.page.small;
  return [
    `INBOX page 1 (50 threads, through the local gateway, median of ${f.runs}, alternated): ${f.sizes[0]} threads vs ${f.sizes[1].toLocaleString('en')}, seeded through the store in ${(f.seedMs / 1000).toFixed(1)} s (goal ≤ 1.2×)`,
    '',
    '| mailbox | page 1 | ratio | goal |',
    '|---|--:|--:|---|',
    `| ${f.sizes[0]} threads | ${ms(f.page.small)} | | |`,
    `| ${f.sizes[1].toLocaleString('en')} threads | ${ms(f.page.large)} | ${ratio(f.page.large, f.page.small)} | ${verdict(pageRatio, 1.2)} |`,
    '',
    `Ingest per message (an SMTP client to the local SMTP server until the thread is listed: outbox file, object, queue, the mail-inbound worker's parse, objects and filing; a 25 KB message with an attachment, median of ${f.ingest.messages}) vs postal-mime's parse alone of the same message`,
    '',
    '| ingest | parse alone | ratio |',
    '|--:|--:|--:|',
    `| ${ms(f.ingest.median)} | ${ms(f.ingest.parse)} | ${ratio(f.ingest.median, f.ingest.parse)} |`,
  ].join('\n');
}

/**
 * Mail in as on `npm start`: the local SMTP server on a free port (SMTP_PORT) and the mail-inbound
 * worker that files what it accepts; their stops go on `stops`. Answers the server's port.
 */
export async function startMailIn(stops: (() => Promise<void> | void)[]): Promise<{ port: number }> {
  const [{ startSmtpServer }, { startWorkers }, { workers }] = await Promise.all([
    import('../../lib/local/smtp'),
    import('../../lib/local/workers'),
    import('../../lib/workers'),
  ]);
  const smtp = await startSmtpServer({ port: 0 });
  stops.push(() => smtp.close());
  process.env.SMTP_PORT = String(smtp.port);
  const running = await startWorkers({ workers: workers.filter((w) => w.name === 'mail-inbound') });
  stops.push(() => running.stop());
  return { port: smtp.port };
}
