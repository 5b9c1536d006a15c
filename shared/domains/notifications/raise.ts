import { describeError, log } from '../../kernel/ground/log';
import { newId } from '../../kernel/store/ids';
import { queue } from '../../ports/queue';
import type { NotifyEvent } from './kinds';
import type { NotifyMessage } from './queue-messages';

export type { NotifyMessage } from './queue-messages';

/**
 * Raises a notification event: one message to the notify worker (lib/workers.ts), which finds the
 * protocols and people it concerns. Called after the change it reports was written; a failure to
 * send is logged (`notify_unsent`), never the caller's error: the change stands either way.
 */
export async function raiseEvent(event: Omit<NotifyEvent, 'eventId' | 'at'> & { at?: number }): Promise<void> {
  const at = event.at ?? Date.now();
  const full: NotifyEvent = { ...event, at, eventId: newId('evt_', at) };
  const message: NotifyMessage = { type: 'event', event: full };
  try {
    await queue().send('NOTIFY_QUEUE_URL', message);
  } catch (err) {
    log.warn('notify_unsent', { kind: event.kind, orgId: event.orgId, error: describeError(err) });
  }
}

/** People among `ids`: user ids (`usr_`), not keys. */
export const peopleOf = (...ids: (string | undefined)[]) => [
  ...new Set(ids.filter((id): id is string => typeof id === 'string' && id.startsWith('usr_'))),
];
