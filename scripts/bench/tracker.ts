import { performance } from 'node:perf_hooks';
import { type BenchPlatform, runAlone } from './platform';
import { median, ms, ratio, verdict } from './stats';

/**
 * Issue tracking, through the local gateway:
 * - `GET /issues?jql=space = X AND status = "In Progress"` page 1 (50) over a space of 10,000 issues
 *   vs one of 100 (a third of each in that status), seeded through the store as creates write them
 *   (records, number pointers, per-status counts): the total comes from the space's per-status
 *   count and only the page is read from the space-and-status index (goal ≤ 2×);
 * - `POST /issues/rank` of 200 issues in one call vs one issue (per call; the 200 are one
 *   conditional write each).
 */
export interface TrackerFigures {
  runs: number;
  search: { small: number; large: number };
  rank: { one: number; many: number };
  seedMs: number;
}

export async function benchTracker(platform: BenchPlatform, options: { runs?: number } = {}): Promise<TrackerFigures> {
  const runs = options.runs ?? 10;
  const { createGateway, listen } = await import('../../lib/local/gateway');
  const gateway = createGateway();
  const port = await listen(gateway, 0);
  try {
    const base = `http://127.0.0.1:${port}/v1/orgs/${platform.orgId}/issues`;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${platform.jwt}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status >= 300)
        throw new Error(
          `bench tracker: ${method} ${path} answered ${res.status} ${JSON.stringify(json).slice(0, 300)}`,
        );
      return json;
    };
    const suffix = Date.now().toString(36).slice(-5).toUpperCase();
    const space = async (key: string) =>
      (
        (await call('POST', '/spaces', { key: `${key}${suffix}`.slice(0, 10), name: key, template: 'basic' })) as {
          space: { spaceId: string; key: string };
        }
      ).space;

    // Rank first, while the organization holds few issues (ranking orders the organization's issues).
    const ranked = await space('R');
    await seed(platform.orgId, ranked.spaceId, 201, (i) => ['todo', 'inprogress', 'done'][i % 3] as string);
    const keys = Array.from({ length: 201 }, (_, i) => `${ranked.key}-${i + 1}`);
    const rank = async (issues: string[], after: string) => {
      const t = performance.now();
      await call('POST', '/rank', { issues, after });
      return performance.now() - t;
    };
    const one: number[] = [];
    const many: number[] = [];
    for (let i = 0; i < Math.max(3, Math.floor(runs / 2)) + 1; i++) {
      const a = await rank([keys[0] as string], keys[200] as string);
      const b = await rank(keys.slice(0, 200), keys[200] as string);
      if (i === 0) continue;
      one.push(a);
      many.push(b);
    }

    const [small, large] = [await space('S'), await space('L')];
    const t0 = performance.now();
    await seed(platform.orgId, small.spaceId, 100, (i) => ['todo', 'inprogress', 'done'][i % 3] as string);
    await seed(platform.orgId, large.spaceId, 10_000, (i) => ['todo', 'inprogress', 'done'][i % 3] as string);
    const seedMs = performance.now() - t0;
    const search = async (key: string, expected: number) => {
      const jql = encodeURIComponent(`space = ${key} AND status = "In Progress"`);
      const t = performance.now();
      const body = (await call('GET', `?jql=${jql}`)) as { total: number; issues: unknown[] };
      const took = performance.now() - t;
      if (body.total !== expected || body.issues.length !== Math.min(50, expected))
        throw new Error(`bench tracker: ${key} found ${body.total}, not ${expected}`);
      return took;
    };
    const s: number[] = [];
    const l: number[] = [];
    for (let i = 0; i < runs + 2; i++) {
      const a = await search(small.key, 33);
      const b = await search(large.key, 3333);
      if (i < 2) continue;
      s.push(a);
      l.push(b);
    }
    return {
      runs,
      search: { small: median(s), large: median(l) },
      rank: { one: median(one), many: median(many) },
      seedMs,
    };
  } finally {
    gateway.closeAllConnections();
    gateway.close();
  }
}

/** `count` issues in a space as creates write them (records indexed by status, numbers, per-status counts), numbers 1…count. */
async function seed(orgId: string, spaceId: string, count: number, status: (i: number) => string): Promise<void> {
  const [
    { db },
    { TABLE },
    { BatchWriteCommand, UpdateCommand },
    { TK, spaceIssuesPk, spaceIssuesSk },
    { ranksBetween },
    { newId },
  ] = await Promise.all([
    import('../../shared/kernel/store/client'),
    import('../../shared/kernel/store/table'),
    import('@aws-sdk/lib-dynamodb'),
    import('../../shared/domains/tracker/store'),
    import('../../shared/domains/tracker/rank'),
    import('../../shared/kernel/store/ids'),
  ]);
  const ranks = ranksBetween(`a${spaceId.slice(-1)}`, null, count);
  const now = Date.now();
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const issueId = newId('iss_', now - count + i);
    const statusId = status(i);
    const updatedAt = now - count + i;
    items.push({
      ...TK.issue(orgId, issueId),
      gsi1pk: spaceIssuesPk(orgId, spaceId),
      gsi1sk: spaceIssuesSk(statusId, updatedAt, issueId),
      orgId,
      issueId,
      spaceId,
      number: i + 1,
      key: `X-${i + 1}`,
      typeId: 'task',
      summary: `Issue ${i + 1}: something to do`,
      statusId,
      statusCategory: statusId === 'inprogress' ? 'inprogress' : statusId,
      priorityId: 'medium',
      labels: [],
      componentIds: [],
      fixVersionIds: [],
      affectsVersionIds: [],
      closedSprintIds: [],
      rank: ranks[i],
      watchers: [],
      voters: [],
      fields: {},
      excerpt: 'A description of the work, cut to its first words.',
      statusLog: [[statusId, updatedAt]],
      commentCount: 0,
      attachmentCount: 0,
      participants: [],
      sla: {},
      version: 1,
      createdAt: updatedAt,
      updatedAt,
    });
    items.push({ ...TK.issueNumber(orgId, spaceId, i + 1), issueId });
  }
  for (let i = 0; i < items.length; i += 25) {
    let pending: Record<string, unknown>[] | undefined = items
      .slice(i, i + 25)
      .map((Item) => ({ PutRequest: { Item } }));
    while (pending && pending.length > 0) {
      const out = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE()]: pending } }));
      pending = out.UnprocessedItems?.[TABLE()] as Record<string, unknown>[] | undefined;
    }
  }
  await db.send(
    new UpdateCommand({
      TableName: TABLE(),
      Key: TK.space(orgId, spaceId),
      UpdateExpression: 'SET seq = :n',
      ExpressionAttributeValues: { ':n': count },
    }),
  );
  const perStatus = new Map<string, number>();
  for (let i = 0; i < count; i++) perStatus.set(status(i), (perStatus.get(status(i)) ?? 0) + 1);
  for (const [statusId, n] of perStatus)
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: TK.statusCount(orgId, spaceId, statusId),
        UpdateExpression: 'ADD n :n',
        ExpressionAttributeValues: { ':n': n },
      }),
    );
  const top = ranks[count - 1] as string;
  await db
    .send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: TK.meta(orgId),
        UpdateExpression: 'SET lastRank = :r',
        ConditionExpression: 'attribute_not_exists(lastRank) OR lastRank < :r',
        ExpressionAttributeValues: { ':r': top },
      }),
    )
    .catch(() => undefined);
}

export function renderTracker(f: TrackerFigures): string {
  const searchRatio = f.search.large / f.search.small;
  return [
    `| figure | 100 issues | 10,000 issues | ratio | goal |`,
    `|---|---|---|---|---|`,
    `| space-and-status search, page 1 (median of ${f.runs}) | ${ms(f.search.small)} | ${ms(f.search.large)} | ${ratio(f.search.large, f.search.small)} | ≤ 2× (${verdict(searchRatio, 2)}) |`,
    '',
    `| figure | 1 issue | 200 issues | ratio |`,
    `|---|---|---|---|`,
    `| POST /issues/rank, one call | ${ms(f.rank.one)} | ${ms(f.rank.many)} | ${ratio(f.rank.many, f.rank.one)} |`,
    '',
    `Seeding 10,100 issues through the store took ${ms(f.seedMs, 0)}.`,
  ].join('\n');
}

if (require.main === module) runAlone(async (platform) => renderTracker(await benchTracker(platform)));
