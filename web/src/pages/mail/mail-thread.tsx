import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { Message, Party } from '../../../../client';
import { api } from '../../lib/api';
import { useParam } from '../../lib/hooks';
import { queryClient } from '../../lib/query';
import { Button, Done, ErrorNote, Loading, PageTitle, when } from '../../ui/controls';
import { MessageBody } from './mail-body';
import { ComposeForm, type ComposeInit, emptyCompose, forwardedParts } from './mail-compose-form';
import {
  bytes,
  folderName,
  LabelPicker,
  MailShell,
  mailKey,
  mailPath,
  type ThreadAction,
  useLabels,
  useMailbox,
  useThreadAction,
} from './mail-shell';

/** A thread and its messages, oldest first; reply, reply all and forward below them. */
export default function MailThread() {
  return (
    <MailShell>
      <ThreadPage />
    </MailShell>
  );
}

type Mode = 'reply' | 'replyAll' | 'forward';
const party = (p: Party | null | undefined) => (p ? (p.name ? `${p.name} <${p.address}>` : p.address) : '');
const prefixed = (prefix: string, subject: string) =>
  new RegExp(`^${prefix}:`, 'i').test(subject.trim()) ? subject : `${prefix}: ${subject}`;

/** What a reply, reply all or forward of `m` starts with (Gmail's choices of recipients and quoting). */
function composeFor(mode: Mode, m: Message, mine: string[], text: string | undefined): ComposeInit {
  const isMine = (a: string) => mine.includes(a.toLowerCase());
  const addrs = (ps: Party[]) => ps.map((p) => p.address);
  const quoted = (text ?? m.snippet)
    .trimEnd()
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  if (mode === 'forward') {
    const header = [
      '---------- Forwarded message ---------',
      `From: ${party(m.from)}`,
      `Date: ${when(m.date)}`,
      `Subject: ${m.subject}`,
      `To: ${m.to.map(party).join(', ')}`,
      ...(m.cc.length ? [`Cc: ${m.cc.map(party).join(', ')}`] : []),
    ].join('\n');
    return {
      ...emptyCompose(),
      subject: prefixed('Fwd', m.subject),
      text: `\n\n${header}\n\n${text ?? m.snippet}`,
      attachments: forwardedParts(m),
    };
  }
  // A message of ours is answered to its recipients again, as Gmail does.
  const sender =
    m.direction === 'out' ? addrs(m.to) : m.replyTo.length ? addrs(m.replyTo) : addrs(m.from ? [m.from] : []);
  const to = mode === 'replyAll' ? [...sender, ...addrs(m.to)] : sender;
  const unique = (list: string[]) => [...new Set(list.map((a) => a.toLowerCase()))].filter((a) => !isMine(a));
  const toList = unique(to);
  const cc = mode === 'replyAll' ? unique(addrs(m.cc)).filter((a) => !toList.includes(a)) : [];
  return {
    ...emptyCompose(),
    to: toList.length ? toList : unique(sender),
    cc,
    subject: prefixed('Re', m.subject),
    text: `\n\nOn ${when(m.date)}, ${party(m.from)} wrote:\n${quoted}`,
    inReplyTo: m.messageId,
  };
}

function ThreadPage() {
  const { orgId, mailboxId, mailbox } = useMailbox();
  const threadId = useParam('threadId');
  const label = useSearchParams()[0].get('label') ?? 'INBOX';
  const navigate = useNavigate();
  const labels = useLabels(orgId, mailboxId).data?.labels ?? [];
  const thread = useQuery({
    queryKey: [...mailKey(orgId, mailboxId), 'thread', threadId],
    queryFn: () => api().getMailMailboxesThreadsByThreadId({ orgId, mailboxId, threadId }),
    refetchInterval: 10_000,
  });
  const act = useThreadAction(orgId, mailboxId);
  const [composing, setComposing] = useState<{ mode: Mode; message: Message; key: number } | null>(null);
  const [sent, setSent] = useState<{ threadId: string; same: boolean } | null>(null);
  const composeRef = useRef<HTMLDivElement>(null);
  // Opening a thread reads it, as in Gmail.
  const unread = thread.data?.thread.unread;
  const markRead = act.mutate;
  useEffect(() => {
    if (unread) markRead({ threadIds: [threadId], action: 'read' });
  }, [unread, threadId, markRead]);
  useEffect(() => {
    if (composing) composeRef.current?.scrollIntoView({ block: 'nearest' });
  }, [composing]);

  if (thread.isPending) return <Loading what="the thread" />;
  if (thread.error) return <ErrorNote error={thread.error} />;
  const { thread: t, messages } = thread.data;
  const back = `${mailPath(orgId, mailboxId)}?label=${encodeURIComponent(label)}`;
  const mine = mailbox ? [mailbox.address, ...mailbox.aliases].map((a) => a.toLowerCase()) : [];
  const has = (l: string) => t.labels.includes(l);
  const run = (action: ThreadAction, leave = false, labelIds?: string[]) =>
    act.mutate({ threadIds: [threadId], action, labelIds }, { onSuccess: () => (leave ? navigate(back) : undefined) });
  const bodies = (messageId: string) =>
    queryClient.getQueryData<{ text: string }>([...mailKey(orgId, mailboxId), 'body', messageId, false])?.text;
  const start = (mode: Mode, message: Message) => {
    setSent(null);
    setComposing({ mode, message, key: Date.now() });
  };
  const userLabels = t.labels
    .map((id) => labels.find((l) => l.labelId === id && l.type === 'user'))
    .filter((l) => l !== undefined);
  return (
    <div>
      <p className="text-sm">
        <Link to={back}>← Back to {folderName(label, labels)}</Link>
      </p>
      <div className="mt-2">
        <PageTitle title={t.subject || '(no subject)'}>{t.subject || '(no subject)'}</PageTitle>
      </div>
      <ul aria-label="Labels of this thread" className="mt-2 flex flex-wrap gap-2 text-xs">
        {t.labels
          .filter((l) => ['INBOX', 'SENT', 'SPAM', 'TRASH', 'STARRED'].includes(l))
          .map((l) => (
            <li key={l} className="rounded bg-slate-100 px-2 py-1 text-slate-900">
              {folderName(l)}
            </li>
          ))}
        {userLabels.map((l) => (
          <li key={l.labelId} className="flex items-center gap-1 rounded bg-blue-50 py-0.5 pl-2 text-slate-900">
            {l.name}
            <Button
              className="min-h-6 px-1.5 py-0 text-xs"
              aria-label={`Remove the label ${l.name}`}
              onPress={() => run('removeLabels', false, [l.labelId])}
            >
              ✕
            </Button>
          </li>
        ))}
      </ul>
      <div role="toolbar" aria-label="Thread actions" className="mt-3 flex flex-wrap items-end gap-2">
        {has('TRASH') ? (
          <>
            <Button onPress={() => run('untrash', true)}>Move to Inbox</Button>
            <Button tone="danger" onPress={() => run('delete', true)}>
              Delete forever
            </Button>
          </>
        ) : has('SPAM') ? (
          <>
            <Button onPress={() => run('notSpam', true)}>Not spam</Button>
            <Button tone="danger" onPress={() => run('delete', true)}>
              Delete forever
            </Button>
          </>
        ) : (
          <>
            {has('INBOX') && <Button onPress={() => run('archive', true)}>Archive</Button>}
            <Button onPress={() => run('trash', true)}>Delete</Button>
            <Button onPress={() => run('spam', true)}>Report spam</Button>
          </>
        )}
        <Button onPress={() => run('unread', true)}>Mark as unread</Button>
        <Button aria-pressed={has('STARRED')} onPress={() => run(has('STARRED') ? 'unstar' : 'star')}>
          {has('STARRED') ? '★ Starred' : '☆ Star'}
        </Button>
        <LabelPicker
          labels={labels}
          busy={act.isPending}
          onApply={(id) => run('addLabels', false, [id])}
          onRemove={(id) => run('removeLabels', false, [id])}
        />
      </div>
      <ErrorNote error={act.error} />
      <ol aria-label="Messages" className="mt-4 space-y-3">
        {messages.map((m, i) => (
          <MessageItem
            key={m.messageId}
            m={m}
            orgId={orgId}
            mailboxId={mailboxId}
            threadId={threadId}
            open={i === messages.length - 1 || t.unread}
            onCompose={(mode) => start(mode, m)}
          />
        ))}
      </ol>
      {sent && (
        <Done>
          Message sent.{' '}
          {!sent.same && (
            <Link to={`${mailPath(orgId, mailboxId)}/threads/${sent.threadId}?label=SENT`}>View message</Link>
          )}
        </Done>
      )}
      <div ref={composeRef} className="mt-4">
        {composing && mailbox && (
          <ComposeForm
            key={composing.key}
            orgId={orgId}
            mailboxId={mailboxId}
            fromAddresses={[mailbox.address, ...mailbox.aliases]}
            init={composeFor(composing.mode, composing.message, mine, bodies(composing.message.messageId))}
            title={composing.mode === 'forward' ? 'Forward' : composing.mode === 'replyAll' ? 'Reply all' : 'Reply'}
            onSent={(s) => {
              setComposing(null);
              setSent({ threadId: s.thread.threadId, same: s.thread.threadId === threadId });
            }}
            onDiscarded={() => setComposing(null)}
          />
        )}
      </div>
    </div>
  );
}

function MessageItem(props: {
  m: Message;
  orgId: string;
  mailboxId: string;
  threadId: string;
  open: boolean;
  onCompose: (mode: Mode) => void;
}) {
  const { m } = props;
  const [open, setOpen] = useState(props.open);
  const who = m.from ? m.from.name || m.from.address : '(unknown sender)';
  const label = `Message from ${who}, ${when(m.date)}`;
  const files = m.attachments.filter((a) => !a.inline || !a.contentId);
  return (
    <li>
      <article aria-label={label} className="rounded-lg border border-slate-200 bg-white p-3">
        <header className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-sm">
            <button
              type="button"
              aria-expanded={open}
              onClick={() => setOpen(!open)}
              className="text-left font-semibold outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
            >
              {who}
              {m.from?.name && <span className="font-normal text-slate-700"> &lt;{m.from.address}&gt;</span>}
            </button>
          </h2>
          <time className="text-xs text-slate-700" dateTime={new Date(m.date).toISOString()}>
            {when(m.date)}
          </time>
        </header>
        {!open && <p className="mt-1 truncate text-sm text-slate-700">{m.snippet}</p>}
        {open && (
          <>
            <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs text-slate-700">
              <dt>To</dt>
              <dd className="break-all">{m.to.map(party).join(', ') || '—'}</dd>
              {m.cc.length > 0 && (
                <>
                  <dt>Cc</dt>
                  <dd className="break-all">{m.cc.map(party).join(', ')}</dd>
                </>
              )}
              {m.bcc.length > 0 && (
                <>
                  <dt>Bcc</dt>
                  <dd className="break-all">{m.bcc.map(party).join(', ')}</dd>
                </>
              )}
            </dl>
            <MessageBody
              orgId={props.orgId}
              mailboxId={props.mailboxId}
              threadId={props.threadId}
              messageId={m.messageId}
              label={`The message from ${who}`}
            />
            {files.length > 0 && (
              <section aria-label={`Attachments of the message from ${who}`} className="mt-3">
                <h3 className="text-sm font-semibold">
                  {files.length} {files.length === 1 ? 'attachment' : 'attachments'}
                </h3>
                <ul className="mt-1 flex flex-wrap gap-2">
                  {files.map((a) => (
                    <AttachmentItem key={a.index} {...props} index={a.index} filename={a.filename} size={a.size} />
                  ))}
                </ul>
              </section>
            )}
            <div className="mt-3 flex flex-wrap gap-2">
              <Button onPress={() => props.onCompose('reply')}>Reply</Button>
              <Button onPress={() => props.onCompose('replyAll')}>Reply all</Button>
              <Button onPress={() => props.onCompose('forward')}>Forward</Button>
            </div>
          </>
        )}
      </article>
    </li>
  );
}

/** One attachment: downloaded through the API's short-lived link (the browser saves it). */
function AttachmentItem(props: {
  orgId: string;
  mailboxId: string;
  m: Message;
  index: number;
  filename: string;
  size: number;
}) {
  const link = useMutation({
    mutationFn: () =>
      api().getMailMailboxesMessagesAttachmentsByIndex({
        orgId: props.orgId,
        mailboxId: props.mailboxId,
        messageId: props.m.messageId,
        index: props.index,
      }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  return (
    <li className="flex items-center gap-2 rounded-md border border-slate-300 bg-slate-50 px-2 py-1 text-sm">
      <span>
        {props.filename} <span className="text-slate-600">({bytes(props.size)})</span>
      </span>
      <Button
        className="min-h-8 px-2"
        aria-label={`Download ${props.filename}`}
        isDisabled={link.isPending}
        onPress={() => link.mutate()}
      >
        Download
      </Button>
      <ErrorNote error={link.error} />
    </li>
  );
}
