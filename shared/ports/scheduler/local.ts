import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../kernel/store/client';
import { TABLE } from '../../kernel/store/table';
import { withFaults } from '../local-faults';
import type { SchedulerPort } from './port';

/**
 * One machine: a timer is a record of the local scheduler, `TIMER`/`<key>`, found by due time on
 * GSI1 (`gsi1sk` = the time, 15 digits, then the key). The local platform's loop
 * (lib/local/timers.ts) moves due ones to the notify queue.
 */
export const TIMER_PK = 'TIMER';
export const dueSortKey = (at: number, key: string) =>
  `${String(Math.max(0, Math.floor(at))).padStart(15, '0')}#${key}`;

// The local platform's fault injector may fail a call as EventBridge Scheduler would (shared/ports/local-faults.ts).
export const localScheduler = (): SchedulerPort =>
  withFaults(
    'scheduler',
    {
      async schedule(key, at, message) {
        await db.send(
          new PutCommand({
            TableName: TABLE(),
            Item: { pk: TIMER_PK, sk: key, gsi1pk: TIMER_PK, gsi1sk: dueSortKey(at, key), at, message },
          }),
        );
      },
      async cancel(key) {
        await db.send(new DeleteCommand({ TableName: TABLE(), Key: { pk: TIMER_PK, sk: key } }));
      },
    },
    { schedule: 'CreateSchedule', cancel: 'DeleteSchedule' },
  );
