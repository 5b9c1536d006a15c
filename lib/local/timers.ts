import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { NotifyMessage } from '../../shared/domains/notifications/queue-messages';
import { describeError, log } from '../../shared/kernel/ground/log';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { queue } from '../../shared/ports/queue';
import { dueSortKey, TIMER_PK } from '../../shared/ports/scheduler/local';

/**
 * The local scheduler's engine (shared/ports/scheduler/local.ts writes the timers): moves every timer
 * due at `now` to the notify queue, oldest first, and removes it (only if it was not scheduled
 * again meanwhile). Answers how many moved. Tests call it with their own clock.
 */
export async function moveDueTimers(now = Date.now()): Promise<number> {
  let moved = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({
        TableName: TABLE(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :t AND gsi1sk <= :due',
        ExpressionAttributeValues: { ':t': TIMER_PK, ':due': `${dueSortKey(now, '')}~` },
        ExclusiveStartKey: start,
      }),
    );
    for (const timer of (out.Items ?? []) as { sk: string; gsi1sk: string; message: NotifyMessage }[]) {
      await queue().send('NOTIFY_QUEUE_URL', timer.message);
      try {
        await db.send(
          new DeleteCommand({
            TableName: TABLE(),
            Key: { pk: TIMER_PK, sk: timer.sk },
            ConditionExpression: 'gsi1sk = :due',
            ExpressionAttributeValues: { ':due': timer.gsi1sk },
          }),
        );
      } catch (err) {
        if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
      }
      moved++;
    }
    start = out.LastEvaluatedKey;
  } while (start);
  return moved;
}

/** `npm start`'s loop: due timers moved every second; kept in the table, they outlive a restart. */
export function startTimers(intervalMs = 1000): { stop: () => void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    moveDueTimers()
      .catch((err: unknown) => log.warn('moving due timers failed', { error: describeError(err) }))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
