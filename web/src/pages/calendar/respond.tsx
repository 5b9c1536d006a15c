import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { Button, ErrorNote } from '../../ui/controls';

export type Partstat = 'accepted' | 'tentative' | 'needs-action' | 'declined' | 'delegated' | null;

const answers = [
  { status: 'accepted', label: 'Accept' },
  { status: 'tentative', label: 'Tentative' },
  { status: 'declined', label: 'Decline' },
] as const;

export const statusLabel: Record<string, string> = {
  accepted: 'Accepted',
  tentative: 'Tentative',
  declined: 'Declined',
  'needs-action': 'Awaiting a response',
  delegated: 'Delegated',
};

/**
 * Accept, tentative, decline (`…/respond`): the series, or one occurrence with `recurrenceId`.
 * The pressed answer is the current one (`aria-pressed`).
 */
export function RespondButtons(props: {
  orgId: string;
  mailboxId: string;
  calendarId: string;
  eventId: string;
  summary: string;
  current: Partstat;
  recurrenceId?: number;
}) {
  const client = useQueryClient();
  const respond = useMutation({
    mutationFn: (status: 'accepted' | 'tentative' | 'declined') =>
      api().postMailMailboxesCalendarsEventsRespond({
        orgId: props.orgId,
        mailboxId: props.mailboxId,
        calendarId: props.calendarId,
        eventId: props.eventId,
        body: { status, ...(props.recurrenceId !== undefined ? { recurrenceId: props.recurrenceId } : {}) },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['calendar', props.orgId, props.mailboxId] }),
  });
  return (
    <div>
      <fieldset className="min-w-0 flex flex-wrap items-center gap-2">
        <legend className="sr-only">Your answer to {props.summary}</legend>
        {answers.map((a) => (
          <Button
            key={a.status}
            tone={props.current === a.status ? 'primary' : 'secondary'}
            aria-pressed={props.current === a.status}
            aria-label={`${a.label} ${props.summary}`}
            isDisabled={respond.isPending}
            onPress={() => respond.mutate(a.status)}
          >
            {a.label}
          </Button>
        ))}
      </fieldset>
      {respond.data?.notified.error && (
        <p className="mt-1 text-sm text-amber-900">
          Saved, but the organizer wasn't told: {respond.data.notified.error}
        </p>
      )}
      <ErrorNote error={respond.error} />
    </div>
  );
}
