import type { SQSEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { CallbackMessage } from '../../shared/domains/agents/queue-messages';
import { ArchiveJob } from '../../shared/domains/repos/queue-messages';
import { eachMessage, failureReasons } from '../../shared/ports/queue/batch';

/**
 * The one batch loop of the queue workers: each message parsed with its row's schema before its
 * handler runs; a malformed one and one whose handling threw reported alone (the rest of the batch
 * goes on), the malformed one logged without its contents; order kept on request.
 */
const event = (...bodies: string[]): SQSEvent =>
  ({ Records: bodies.map((body, i) => ({ messageId: `m${i}`, body })) }) as unknown as SQSEvent;
const N = z.object({ n: z.number() });
const SECRET = 'sk_live_never_logged_0123456789';

let lines: string[] = [];
let spy: jest.SpyInstance | undefined;
const level = process.env.LOG_LEVEL;
beforeEach(() => {
  lines = [];
  process.env.LOG_LEVEL = 'info';
  spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  spy?.mockRestore();
  process.env.LOG_LEVEL = level;
});

test('handles the good messages; reports the malformed ones and those whose handling threw', async () => {
  const seen: number[] = [];
  const out = await eachMessage(
    event('{"n":1}', 'not json', `{"x":1,"token":"${SECRET}"}`, '{"n":2}', '{"n":3}', `{"n":"${SECRET}"}`),
    {
      what: 'a test message',
      message: N,
      handle: async (m) => {
        if (m.n === 2) throw new Error('the table is down');
        seen.push(m.n);
      },
    },
  );
  expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['m1', 'm2', 'm3', 'm5']);
  expect(seen.sort()).toEqual([1, 3]);
  expect(Object.fromEntries(failureReasons.get(out) ?? [])).toEqual({
    m1: 'malformed message: no JSON',
    m2: 'malformed message: n: invalid_type',
    m3: 'Error: the table is down',
    m5: 'malformed message: n: invalid_type',
  });
  const logged = lines.join('');
  expect(logged).toContain('a test message is malformed');
  expect(logged).not.toContain(SECRET);
});

test("a row's schema: a good message passes, a bad one names where it is malformed", () => {
  const sha = 'a'.repeat(40);
  expect(z.safeParse(ArchiveJob, { repoId: 'res_1', commit: sha, format: 'zip', requestedAt: 1 }).success).toBe(true);
  const bad = z.safeParse(ArchiveJob, { repoId: 'res_1', commit: 'HEAD', format: 'rar', requestedAt: 1 });
  expect(bad.error?.issues.map((i) => i.path.join('.'))).toEqual(['commit', 'format']);
  expect(z.safeParse(CallbackMessage, { orgId: 'org_1', jobId: 'job_1', attempt: 1.5 }).success).toBe(false);
});

test('one at a time keeps the order and waits for each', async () => {
  const order: string[] = [];
  await eachMessage(event('{"n":30}', '{"n":1}', '{"n":10}'), {
    what: 'a test message',
    message: N,
    oneAtATime: true,
    handle: async (m) => {
      order.push(`start ${m.n}`);
      await new Promise((r) => setTimeout(r, m.n));
      order.push(`end ${m.n}`);
    },
  });
  expect(order).toEqual(['start 30', 'end 30', 'start 1', 'end 1', 'start 10', 'end 10']);
});
