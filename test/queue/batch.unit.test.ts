import type { SQSEvent } from 'aws-lambda';
import { eachMessage } from '../../shared/ports/queue/batch';

/** The one batch loop of the queue workers: shapes checked, failures reported alone, order kept on request. */
const event = (...bodies: string[]): SQSEvent =>
  ({ Records: bodies.map((body, i) => ({ messageId: `m${i}`, body })) }) as unknown as SQSEvent;
const isN = (x: unknown): x is { n: number } => typeof (x as { n?: unknown } | null)?.n === 'number';

test('drops what is no message, reports only the messages whose handling threw', async () => {
  const seen: number[] = [];
  const out = await eachMessage(event('{"n":1}', 'not json', '{"x":1}', '{"n":2}', '{"n":3}'), {
    what: 'a test message',
    is: isN,
    handle: async (m) => {
      if (m.n === 2) throw new Error('the table is down');
      seen.push(m.n);
    },
  });
  expect(out).toEqual({ batchItemFailures: [{ itemIdentifier: 'm3' }] });
  expect(seen.sort()).toEqual([1, 3]);
});

test('one at a time keeps the order and waits for each', async () => {
  const order: string[] = [];
  await eachMessage(event('{"n":30}', '{"n":1}', '{"n":10}'), {
    what: 'a test message',
    is: isN,
    oneAtATime: true,
    handle: async (m) => {
      order.push(`start ${m.n}`);
      await new Promise((r) => setTimeout(r, m.n));
      order.push(`end ${m.n}`);
    },
  });
  expect(order).toEqual(['start 30', 'end 30', 'start 1', 'end 1', 'start 10', 'end 10']);
});
