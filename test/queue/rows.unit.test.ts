import { join } from 'node:path';
import { type QueueTrigger, type Worker, workerEntry, workers } from '../../lib/workers';

/**
 * Each queue worker's messages are checked by the schema its row names (lib/workers.ts), as a
 * route's body is by its route's: the worker's file hands that same schema to its batch.
 */
const queueRows = workers.filter((w): w is Worker & { trigger: QueueTrigger } => w.trigger.kind === 'queue');

test('the table has queue workers, each with a message schema', () => {
  expect(queueRows.length).toBeGreaterThan(5);
  for (const w of queueRows) expect([w.name, typeof w.trigger.message?._zod]).toEqual([w.name, 'object']);
});

test.each(queueRows.map((w) => [w.name, w] as const))(
  'the %s worker parses with its row’s schema',
  async (_name, w) => {
    const mod = (await import(join(__dirname, '..', '..', workerEntry(w)))) as { message?: unknown };
    expect(mod.message).toBe(w.trigger.message);
  },
);
