import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { MailLabel } from '../../../../client';
import { api } from '../../lib/api';
import { useOrgId } from '../../lib/hooks';
import { Button, ErrorNote, Loading, SelectField, TextInput } from '../../ui/controls';

/** Every query of one mailbox starts with this key: a write invalidates them all at once. */
export const mailKey = (orgId: string, mailboxId: string) => ['mail', orgId, mailboxId];

/** The folders Gmail shows first, in its order; user labels follow. */
export const FOLDERS = [
  ['INBOX', 'Inbox'],
  ['STARRED', 'Starred'],
  ['SENT', 'Sent'],
  ['DRAFTS', 'Drafts'],
  ['SPAM', 'Spam'],
  ['TRASH', 'Trash'],
] as const;

export const folderName = (labelId: string, labels: MailLabel[] = []) =>
  FOLDERS.find(([id]) => id === labelId)?.[1] ?? labels.find((l) => l.labelId === labelId)?.name ?? labelId;

/** The person's mailboxes (`GET /mail/mailboxes`), each with its unread INBOX threads. */
export function useMailboxes() {
  const orgId = useOrgId();
  return useQuery({
    queryKey: ['mail', orgId, 'mailboxes'],
    queryFn: () => api().getMailMailboxes({ orgId }),
    refetchInterval: 15_000,
  });
}

export function useMailbox() {
  const orgId = useOrgId();
  const { mailboxId = '' } = useParams();
  const boxes = useMailboxes();
  const mailbox = boxes.data?.mailboxes.find((m) => m.mailboxId === mailboxId);
  return { orgId, mailboxId, mailbox, boxes };
}

export function useLabels(orgId: string, mailboxId: string) {
  return useQuery({
    queryKey: [...mailKey(orgId, mailboxId), 'labels'],
    queryFn: () => api().getMailMailboxesLabels({ orgId, mailboxId }),
    refetchInterval: 10_000,
  });
}

/** Runs a thread action, then reads the mailbox again (lists, counts, the thread). */
export function useThreadAction(orgId: string, mailboxId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { threadIds: string[]; action: ThreadAction; labelIds?: string[] }) =>
      api().postMailMailboxesThreadsActions({ orgId, mailboxId, body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: mailKey(orgId, mailboxId) }),
  });
}

export type ThreadAction =
  | 'read'
  | 'unread'
  | 'star'
  | 'unstar'
  | 'archive'
  | 'trash'
  | 'untrash'
  | 'spam'
  | 'notSpam'
  | 'addLabels'
  | 'removeLabels'
  | 'delete';

export const mailPath = (orgId: string, mailboxId: string) => `/orgs/${orgId}/mail/${mailboxId}`;

/**
 * The mail area's frame: the mailbox switcher, Compose, the folders and labels with their unread
 * counts (labels made and deleted here), and the page beside them.
 */
export function MailShell({ children }: { children: ReactNode }) {
  const { orgId, mailboxId, boxes } = useMailbox();
  const navigate = useNavigate();
  if (boxes.isPending) return <Loading what="your mailboxes" />;
  if (boxes.error) return <ErrorNote error={boxes.error} />;
  const list = boxes.data.mailboxes;
  return (
    <div className="flex flex-col gap-6 md:flex-row">
      <aside aria-label="Mail folders" className="w-full shrink-0 md:w-56">
        <SelectField
          label="Mailbox"
          value={mailboxId}
          onChange={(id) => {
            localStorage.setItem(`platform.mailbox.${orgId}`, id);
            navigate(mailPath(orgId, id));
          }}
          options={list.map((m) => ({ id: m.mailboxId, label: m.unread ? `${m.address} (${m.unread})` : m.address }))}
        />
        <Link
          to={`${mailPath(orgId, mailboxId)}/compose`}
          className="mt-3 inline-flex min-h-10 w-full items-center justify-center rounded-md bg-blue-700 px-3 py-1.5 text-sm font-medium text-white no-underline hover:bg-blue-800 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:ring-offset-2"
        >
          Compose
        </Link>
        <Folders orgId={orgId} mailboxId={mailboxId} />
      </aside>
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}

function Folders({ orgId, mailboxId }: { orgId: string; mailboxId: string }) {
  const labels = useLabels(orgId, mailboxId);
  const [params] = useSearchParams();
  const current = params.get('label') ?? 'INBOX';
  const all = labels.data?.labels ?? [];
  const user = all.filter((l) => l.type === 'user');
  const countOf = (id: string) => all.find((l) => l.labelId === id);
  const item = (id: string, name: string, depth = 0) => {
    const c = countOf(id);
    // Gmail counts unread threads beside most folders, every draft beside Drafts.
    const n = id === 'DRAFTS' ? c?.total : id === 'SENT' || id === 'TRASH' ? 0 : c?.unread;
    return (
      <li key={id}>
        <Link
          to={`${mailPath(orgId, mailboxId)}?label=${encodeURIComponent(id)}`}
          aria-current={current === id ? 'page' : undefined}
          className={`flex items-center justify-between rounded-r-full px-3 py-1.5 text-sm no-underline ${current === id ? 'bg-blue-100 font-semibold text-slate-900' : 'text-slate-800 hover:bg-slate-100'}`}
          style={{ paddingLeft: `${0.75 + depth}rem` }}
        >
          <span className="truncate">{name}</span>
          {n ? (
            <span className="ml-2 text-xs font-semibold">
              {n}
              <span className="sr-only"> {id === 'DRAFTS' ? 'drafts' : 'unread'}</span>
            </span>
          ) : null}
        </Link>
      </li>
    );
  };
  return (
    <>
      <nav aria-label="Folders" className="mt-4">
        <ul>{FOLDERS.map(([id, name]) => item(id, name))}</ul>
      </nav>
      <section aria-labelledby="mail-labels-heading" className="mt-4">
        <h2 id="mail-labels-heading" className="px-3 text-sm font-semibold text-slate-700">
          Labels
        </h2>
        <ErrorNote error={labels.error} />
        {user.length > 0 && (
          <nav aria-label="Labels">
            <ul>{user.map((l) => item(l.labelId, l.name, l.name.split('/').length - 1))}</ul>
          </nav>
        )}
        <LabelAdmin orgId={orgId} mailboxId={mailboxId} labels={user} />
      </section>
    </>
  );
}

/** Creating and deleting user labels (`/` nests, as in Gmail). */
function LabelAdmin({ orgId, mailboxId, labels }: { orgId: string; mailboxId: string; labels: MailLabel[] }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [doomed, setDoomed] = useState('');
  const refresh = () => qc.invalidateQueries({ queryKey: mailKey(orgId, mailboxId) });
  const create = useMutation({
    mutationFn: () => api().postMailMailboxesLabels({ orgId, mailboxId, body: { name: name.trim() } }),
    onSuccess: () => {
      setName('');
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (labelId: string) => api().deleteMailMailboxesLabelsByLabelId({ orgId, mailboxId, labelId }),
    onSuccess: () => {
      setDoomed('');
      void refresh();
      navigate(mailPath(orgId, mailboxId));
    },
  });
  const doomedLabel = labels.find((l) => l.labelId === doomed);
  return (
    <div className="mt-3 px-3">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) create.mutate();
        }}
        className="flex items-end gap-2"
      >
        <TextInput label="New label" value={name} onChange={setName} className="min-w-0 flex-1" />
        <Button type="submit" isDisabled={!name.trim() || create.isPending}>
          Create
        </Button>
      </form>
      <ErrorNote error={create.error} />
      {labels.length > 0 && (
        <div className="mt-3 flex items-end gap-2">
          <SelectField
            label="Delete a label"
            className="min-w-0 flex-1"
            value={doomed}
            onChange={setDoomed}
            options={[{ id: '', label: 'Choose…' }, ...labels.map((l) => ({ id: l.labelId, label: l.name }))]}
          />
          <Button
            tone="danger"
            isDisabled={!doomedLabel || remove.isPending}
            onPress={() => doomedLabel && remove.mutate(doomedLabel.labelId)}
            aria-label={doomedLabel ? `Delete the label ${doomedLabel.name}` : 'Delete the label'}
          >
            Delete
          </Button>
        </div>
      )}
      <ErrorNote error={remove.error} />
    </div>
  );
}

/** A label chooser with Apply and Remove, for the threads chosen (list) or the one open (thread). */
export function LabelPicker(props: {
  labels: MailLabel[];
  onApply: (labelId: string) => void;
  onRemove: (labelId: string) => void;
  busy: boolean;
}) {
  const user = props.labels.filter((l) => l.type === 'user');
  const [chosen, setChosen] = useState('');
  const id = user.some((l) => l.labelId === chosen) ? chosen : (user[0]?.labelId ?? '');
  if (user.length === 0) return null;
  return (
    <div className="flex flex-wrap items-end gap-2">
      <SelectField
        label="Label"
        value={id}
        onChange={setChosen}
        options={user.map((l) => ({ id: l.labelId, label: l.name }))}
      />
      <Button isDisabled={props.busy} onPress={() => props.onApply(id)}>
        Apply label
      </Button>
      <Button isDisabled={props.busy} onPress={() => props.onRemove(id)}>
        Remove label
      </Button>
    </div>
  );
}

/** A size as people read it. */
export const bytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
