import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../lib/api';
import { ErrorNote, Loading, PageTitle } from '../../ui/controls';
import { attachmentOf, ComposeForm, type ComposeInit, emptyCompose } from './mail-compose-form';
import { MailShell, mailKey, mailPath, useMailbox } from './mail-shell';

/** A new message, or a draft resumed from Drafts (`?draft=`). */
export default function MailCompose() {
  return (
    <MailShell>
      <ComposePage />
    </MailShell>
  );
}

function ComposePage() {
  const { orgId, mailboxId, mailbox } = useMailbox();
  const navigate = useNavigate();
  const draftId = useSearchParams()[0].get('draft');
  const draft = useQuery({
    queryKey: [...mailKey(orgId, mailboxId), 'draft', draftId],
    queryFn: () => api().getMailMailboxesDraftsByDraftId({ orgId, mailboxId, draftId: draftId as string }),
    enabled: !!draftId,
    // The form owns the draft from here: never read again under it.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  const title = draftId ? 'Draft' : 'New message';
  if (!mailbox) return <ErrorNote error={new Error('Mailbox not found')} />;
  if (draftId && draft.isPending) return <Loading what="the draft" />;
  if (draft.error) return <ErrorNote error={draft.error} />;
  const d = draft.data?.draft;
  const signature = mailbox.settings.signature;
  const init: ComposeInit = d
    ? { ...d, draftId: d.draftId, version: d.version, attachments: d.attachments.map(attachmentOf) }
    : { ...emptyCompose(), text: signature ? `\n\n-- \n${signature}` : '' };
  return (
    <div>
      <PageTitle title={`${title} · ${mailbox.address}`}>{title}</PageTitle>
      <div className="mt-4">
        <ComposeForm
          key={draftId ?? 'new'}
          orgId={orgId}
          mailboxId={mailboxId}
          fromAddresses={[mailbox.address, ...mailbox.aliases]}
          init={init}
          title={d ? `Draft: ${d.subject || '(no subject)'}` : 'Message'}
          onSent={(sent) => navigate(`${mailPath(orgId, mailboxId)}/threads/${sent.thread.threadId}?label=SENT`)}
          onDiscarded={() => navigate(mailPath(orgId, mailboxId))}
        />
      </div>
    </div>
  );
}
