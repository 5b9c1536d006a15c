import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type BenchPlatform, runAlone } from './platform';
import { median, ms, ratio } from './stats';

/**
 * Contacts: `GET …/contacts?q=` page 1 (through the local gateway) over a mailbox of 10,000
 * contacts vs one of 100, seeded through the store as the routes write them (contacts and their
 * search postings). Three lists: a word in 20 contacts of either mailbox, spread over it, a word in
 * a fifth of them (2,000 postings in the large one, read whole, then contacts until the page of 50
 * is full), and no `q`. Beside them, the rare word's postings as one bare Query of a document
 * client: the engine's own share.
 */
export interface ContactsFigures {
  runs: number;
  sizes: [number, number];
  rare: { small: number; large: number };
  bare: { small: number; large: number };
  common: { small: number; large: number };
  all: { small: number; large: number };
  seedMs: number;
}

const RARE = 'zephyrine';
const COMMON = 'common';
const GIVEN = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John', 'Radia', 'Ken'];
const FAMILY = ['Lovelace', 'Turing', 'Hopper', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Backus', 'Perlman'];

export async function benchContacts(
  platform: BenchPlatform,
  options: { runs?: number } = {},
): Promise<ContactsFigures> {
  const runs = options.runs ?? 10;
  const env = process.env;
  const stops: (() => Promise<void> | void)[] = [];
  try {
    env.ARTIFACTS_BUCKET = `bench-contacts-${randomBytes(4).toString('hex')}`;
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
    const domain = `bench-contacts-${randomBytes(4).toString('hex')}.test`;
    await addDomain(platform.orgId, domain);
    const box = (name: string) =>
      createMailbox(platform.orgId, {
        address: `${name}@${domain}`,
        name,
        members: [platform.userId],
        kind: 'personal',
      });
    const [small, large] = [await box('contacts-small'), await box('contacts-large')];
    const t0 = performance.now();
    await seed(small.mailboxId, 100);
    await seed(large.mailboxId, 10_000);
    const seedMs = performance.now() - t0;

    const list = async (mailboxId: string, query: string, expected: number) => {
      const t = performance.now();
      const res = await fetch(
        `http://127.0.0.1:${port}/v1/orgs/${platform.orgId}/mail/mailboxes/${mailboxId}/contacts?${query}`,
        { headers: { authorization: `Bearer ${platform.jwt}` } },
      );
      const body = (await res.json()) as { contacts?: unknown[] };
      if (res.status !== 200 || body.contacts?.length !== expected) {
        throw new Error(`bench contacts answered ${res.status} with ${JSON.stringify(body).slice(0, 300)}`);
      }
      return performance.now() - t;
    };
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: platform.dynamoEndpoint }));
    stops.push(() => client.destroy());
    const bare = async (mailboxId: string) => {
      const t = performance.now();
      const out = await client.send(
        new QueryCommand({
          TableName: env.TABLE_NAME,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :p AND :end',
          ExpressionAttributeValues: {
            ':pk': `MBX#${mailboxId}`,
            ':p': `CTS#W#${RARE}`,
            ':end': `CTS#W#${RARE}\u{10FFFF}`,
          },
        }),
      );
      if (out.Items?.length !== 20) throw new Error(`bench bare query found ${out.Items?.length}, not the 20 seeded`);
      return performance.now() - t;
    };
    const series: Record<string, number[]> = {};
    const add = (name: string, value: number) => {
      series[name] ??= [];
      series[name].push(value);
    };
    for (let i = 0; i < runs + 2; i++) {
      const round: [string, number][] = [
        ['rareSmall', await list(small.mailboxId, `q=${RARE}&limit=50`, 20)],
        ['rareLarge', await list(large.mailboxId, `q=${RARE}&limit=50`, 20)],
        ['commonSmall', await list(small.mailboxId, `q=${COMMON}&limit=50`, 20)],
        ['commonLarge', await list(large.mailboxId, `q=${COMMON}&limit=50`, 50)],
        ['allSmall', await list(small.mailboxId, 'limit=50', 50)],
        ['allLarge', await list(large.mailboxId, 'limit=50', 50)],
        ['bareSmall', await bare(small.mailboxId)],
        ['bareLarge', await bare(large.mailboxId)],
      ];
      if (i < 2) continue;
      for (const [name, value] of round) add(name, value);
    }
    const pair = (a: string, b: string) => ({ small: median(series[a] ?? []), large: median(series[b] ?? []) });
    return {
      runs,
      sizes: [100, 10_000],
      rare: pair('rareSmall', 'rareLarge'),
      bare: pair('bareSmall', 'bareLarge'),
      common: pair('commonSmall', 'commonLarge'),
      all: pair('allSmall', 'allLarge'),
      seedMs,
    };
  } finally {
    for (const s of stops.reverse()) await s();
  }
}

/**
 * `count` contacts in the mailbox's default address book, as the routes write them (with their
 * postings): 20 with the rare word (spread over the mailbox), a fifth with the common one.
 */
async function seed(mailboxId: string, count: number): Promise<void> {
  const [{ ensureHead }, { newContact }, { postingKey, tokensOf }, { db }, { TABLE }, { BatchWriteCommand }] =
    await Promise.all([
      import('../../shared/domains/contacts/books'),
      import('../../shared/domains/contacts/contacts'),
      import('../../shared/domains/contacts/search'),
      import('../../shared/kernel/store/client'),
      import('../../shared/kernel/store/table'),
      import('@aws-sdk/lib-dynamodb'),
    ]);
  const head = await ensureHead(mailboxId);
  const every = Math.floor(count / 20);
  const items = Array.from({ length: count }, (_, i) => {
    const family = `${FAMILY[i % FAMILY.length]}${i % every === 0 ? ` ${RARE}` : ''}`;
    const given = GIVEN[i % GIVEN.length] as string;
    return newContact(mailboxId, head.defaultId, {
      name: { given, family },
      emails: [{ value: `${given.toLowerCase()}.${i}@example.com`, type: 'work' }],
      phones: [{ value: `+1 555 ${String(i).padStart(4, '0')}`, type: 'mobile' }],
      organization: i % 5 === 0 ? `The ${COMMON} company` : `Company ${i % 97}`,
      notes: 'Met at the conference.',
    });
  });
  const rows: Record<string, unknown>[] = [];
  for (const c of items) {
    rows.push(c as unknown as Record<string, unknown>);
    for (const t of tokensOf(c)) {
      rows.push({ ...postingKey(mailboxId, t, c.contactId), contactId: c.contactId, addressBookId: c.addressBookId });
    }
  }
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < rows.length; i += 25) batches.push(rows.slice(i, i + 25));
  const write = async () => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      let pending: Record<string, unknown>[] | undefined = batch.map((Item) => ({ PutRequest: { Item } }));
      while (pending && pending.length > 0) {
        const out = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE()]: pending } }));
        pending = out.UnprocessedItems?.[TABLE()] as Record<string, unknown>[] | undefined;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, write));
}

export function renderContacts(f: ContactsFigures): string {
  const row = (name: string, x: { small: number; large: number }) =>
    `| ${name} | ${ms(x.small)} | ${ms(x.large)} | ${ratio(x.large, x.small)} |`;
  return [
    `Contacts page 1 (\`GET …/contacts\`, limit 50) through the local gateway, a mailbox of ` +
      `${f.sizes[1].toLocaleString('en')} contacts vs one of ${f.sizes[0]}, median of ${f.runs} rounds ` +
      `(seeded through the store in ${(f.seedMs / 1000).toFixed(1)} s):`,
    '',
    `| list | ${f.sizes[0]} contacts | ${f.sizes[1].toLocaleString('en')} contacts | ratio |`,
    '|---|--:|--:|--:|',
    row(`\`q\`: a word in 20 contacts of each, spread (\`${RARE}\`)`, f.rare),
    row("the same word's postings, one bare Query", f.bare),
    row(`\`q\`: a word in a fifth of them (\`${COMMON}\`)`, f.common),
    row('no `q`', f.all),
    '',
  ].join('\n');
}

// `npx tsx scripts/bench/contacts.ts`: this figure alone.
if (require.main === module) runAlone(async (platform) => renderContacts(await benchContacts(platform)));
