import { Navigate } from 'react-router';
import { useOrgId } from '../../lib/hooks';
import { ErrorNote, Loading, PageTitle } from '../../ui/controls';
import { mailPath, useMailboxes } from './mail-shell';

/** `/orgs/:orgId/mail`: the mailbox opened last (or the first), else why there is none. */
export default function MailIndex() {
  const orgId = useOrgId();
  const boxes = useMailboxes();
  if (boxes.isPending) return <Loading what="your mailboxes" />;
  if (boxes.error)
    return (
      <div>
        <PageTitle title="Mail">Mail</PageTitle>
        <ErrorNote error={boxes.error} />
      </div>
    );
  const list = boxes.data.mailboxes;
  const last = localStorage.getItem(`platform.mailbox.${orgId}`);
  const open = list.find((m) => m.mailboxId === last) ?? list[0];
  if (open) return <Navigate replace to={mailPath(orgId, open.mailboxId)} />;
  return (
    <div>
      <PageTitle title="Mail">Mail</PageTitle>
      <p className="mt-3 text-sm text-slate-700">
        You have no mailbox in this organization yet. An administrator adds a mail domain and a mailbox for you.
      </p>
    </div>
  );
}
