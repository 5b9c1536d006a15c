import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Draft, MailThreadSummary } from '../../../../client';
import { api } from '../../lib/api';
import { useCursorList } from '../../lib/query';
import { Button, Checkbox, ErrorNote, Loading, MoreButton, PageTitle, when } from '../../ui/controls';
import {
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

/** A folder or label of the mailbox (`?label=`), or a search in it (`?q=`), newest first, paged. */
export default function MailList() {
  return (
    <MailShell>
      <ListPage />
    </MailShell>
  );
}

function ListPage() {
  const { orgId, mailboxId, mailbox } = useMailbox();
  const [params, setParams] = useSearchParams();
  const label = params.get('label') ?? 'INBOX';
  const q = params.get('q') ?? '';
  const labels = useLabels(orgId, mailboxId).data?.labels;
  const name = folderName(label, labels);
  const title = q ? `Search: ${q}` : name;
  return (
    <div>
      <PageTitle title={`${title} · ${mailbox?.address ?? 'Mail'}`}>{title}</PageTitle>
      <Search
        key={`${label}:${q}`}
        initial={q}
        folder={name}
        onSearch={(next) => setParams(next ? { label, q: next } : { label })}
      />
      {label === 'DRAFTS' ? (
        <Drafts orgId={orgId} mailboxId={mailboxId} />
      ) : (
        <Threads orgId={orgId} mailboxId={mailboxId} label={label} q={q} />
      )}
    </div>
  );
}

function Search(props: { initial: string; folder: string; onSearch: (q: string) => void }) {
  const [value, setValue] = useState(props.initial);
  return (
    <search className="mt-3">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          props.onSearch(value.trim());
        }}
        className="flex flex-wrap items-end gap-2"
      >
        <label className="block min-w-0 flex-1 text-sm">
          <span className="font-medium">Search mail in {props.folder}</span>
          <input
            type="search"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder="from:ann has:attachment invoice"
            className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-2.5 py-1.5 text-sm outline-none focus:border-blue-700 focus:ring-2 focus:ring-blue-600"
          />
        </label>
        <Button type="submit">Search</Button>
        {props.initial && <Button onPress={() => props.onSearch('')}>Clear search</Button>}
      </form>
      <p className="mt-1 text-xs text-slate-600">
        from: to: subject: label: is:unread is:starred has:attachment before: after: (YYYY/MM/DD) and words.
      </p>
    </search>
  );
}

/** The actions a folder offers on chosen threads, as Gmail's toolbar does. */
function actionsFor(label: string): [ThreadAction, string][] {
  if (label === 'TRASH')
    return [
      ['untrash', 'Move to Inbox'],
      ['delete', 'Delete forever'],
    ];
  if (label === 'SPAM')
    return [
      ['notSpam', 'Not spam'],
      ['delete', 'Delete forever'],
    ];
  return [
    ['archive', 'Archive'],
    ['trash', 'Delete'],
    ['spam', 'Report spam'],
    ['read', 'Mark as read'],
    ['unread', 'Mark as unread'],
  ];
}

function Threads({ orgId, mailboxId, label, q }: { orgId: string; mailboxId: string; label: string; q: string }) {
  // New mail arrives on its own: the pages shown are read again every 5 seconds.
  const list = usePolledList([...mailKey(orgId, mailboxId), 'threads', label, q], (cursor) =>
    api().getMailMailboxesThreads({ orgId, mailboxId, label, q: q || undefined, cursor, limit: 25 }),
  );
  const labels = useLabels(orgId, mailboxId).data?.labels ?? [];
  const act = useThreadAction(orgId, mailboxId);
  const [chosen, setChosen] = useState<string[]>([]);
  const shown = new Set(list.items.map((t) => t.threadId));
  const selected = chosen.filter((id) => shown.has(id));
  const run = (action: ThreadAction, threadIds = selected, labelIds?: string[]) =>
    act.mutate(
      { threadIds, action, labelIds },
      { onSuccess: () => (action === 'read' || action === 'unread' ? undefined : setChosen([])) },
    );
  const all = list.items.length > 0 && selected.length === list.items.length;
  return (
    <section aria-label="Threads" className="mt-4">
      <div role="toolbar" aria-label="Thread actions" className="flex flex-wrap items-end gap-2">
        <Checkbox isSelected={all} onChange={(on) => setChosen(on ? list.items.map((t) => t.threadId) : [])}>
          Select all
        </Checkbox>
        <Button onPress={() => void list.refetch()}>Refresh</Button>
        {selected.length > 0 && (
          <>
            {actionsFor(label).map(([action, text]) => (
              <Button key={action} isDisabled={act.isPending} onPress={() => run(action)}>
                {text}
              </Button>
            ))}
            <LabelPicker
              labels={labels}
              busy={act.isPending}
              onApply={(id) => run('addLabels', selected, [id])}
              onRemove={(id) => run('removeLabels', selected, [id])}
            />
          </>
        )}
      </div>
      {selected.length > 0 && (
        <p role="status" className="mt-1 text-xs text-slate-700">
          {selected.length} selected
        </p>
      )}
      <ErrorNote error={act.error} />
      {act.data?.results.some((r) => !r.ok) && (
        <p role="alert" className="mt-2 text-sm text-red-900">
          {act.data.results
            .filter((r) => !r.ok)
            .map((r) => r.error)
            .join(' ')}
        </p>
      )}
      {list.isPending && <Loading what="threads" />}
      <ErrorNote error={list.error} />
      {!list.isPending && !list.error && list.items.length === 0 && (
        <p className="mt-4 text-sm text-slate-700">{q ? 'No thread matches this search.' : 'No threads here.'}</p>
      )}
      <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200">
        {list.items.map((t) => (
          <ThreadRow
            key={t.threadId}
            t={t}
            href={`${mailPath(orgId, mailboxId)}/threads/${t.threadId}?label=${encodeURIComponent(label)}`}
            selected={selected.includes(t.threadId)}
            onSelect={(on) => setChosen((c) => (on ? [...c, t.threadId] : c.filter((id) => id !== t.threadId)))}
            onStar={(on) => run(on ? 'star' : 'unstar', [t.threadId])}
            labelNames={labels}
          />
        ))}
      </ul>
      <MoreButton hasMore={list.hasMore} loading={list.loadingMore} onMore={list.more} what="threads" />
    </section>
  );
}

/** As useCursorList, read again every 5 s (its poll is every 2 s, for builds). */
function usePolledList(
  queryKey: unknown[],
  fetchPage: (cursor: string | undefined) => Promise<{ threads: MailThreadSummary[]; cursor: string | null }>,
) {
  const q = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.cursor ?? undefined,
    refetchInterval: 5000,
  });
  return {
    items: q.data?.pages.flatMap((p) => p.threads) ?? [],
    error: q.error,
    isPending: q.isPending,
    hasMore: q.hasNextPage,
    loadingMore: q.isFetchingNextPage,
    more: () => void q.fetchNextPage(),
    refetch: q.refetch,
  };
}

function ThreadRow(props: {
  t: MailThreadSummary;
  href: string;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onStar: (on: boolean) => void;
  labelNames: { labelId: string; name: string; type: string }[];
}) {
  const { t } = props;
  const starred = t.labels.includes('STARRED');
  const who = t.from.map((p) => p.name || p.address).join(', ') || '(unknown sender)';
  const userLabels = t.labels
    .map((id) => props.labelNames.find((l) => l.labelId === id && l.type === 'user'))
    .filter((l) => l !== undefined);
  return (
    <li className={`flex items-start gap-2 p-2 text-sm ${t.unread ? 'bg-white' : 'bg-slate-50'}`}>
      <Checkbox isSelected={props.selected} onChange={props.onSelect}>
        <span className="sr-only">Select {t.subject || '(no subject)'}</span>
      </Checkbox>
      <button
        type="button"
        aria-pressed={starred}
        aria-label={`Star ${t.subject || '(no subject)'}`}
        onClick={() => props.onStar(!starred)}
        className={`min-h-8 min-w-8 rounded text-lg leading-none outline-none focus-visible:ring-2 focus-visible:ring-blue-600 ${starred ? 'text-amber-700' : 'text-slate-500'}`}
      >
        {starred ? '★' : '☆'}
      </button>
      <Link
        to={props.href}
        className="flex min-w-0 flex-1 flex-col gap-0.5 text-slate-900 no-underline hover:underline sm:flex-row sm:items-baseline sm:gap-3"
      >
        <span className={`truncate sm:w-44 sm:shrink-0 ${t.unread ? 'font-bold' : ''}`}>
          {t.unread && <span className="sr-only">Unread: </span>}
          {who}
          {t.messageCount > 1 && <span className="ml-1 text-xs text-slate-600">{t.messageCount}</span>}
        </span>
        <span className="min-w-0 flex-1 truncate">
          <span className={t.unread ? 'font-bold' : ''}>{t.subject || '(no subject)'}</span>
          <span className="text-slate-600"> — {t.snippet}</span>
        </span>
        <span className="flex shrink-0 items-center gap-2 text-xs text-slate-700">
          {userLabels.map((l) => (
            <span key={l.labelId} className="rounded bg-slate-200 px-1.5 py-0.5 text-slate-900">
              {l.name}
            </span>
          ))}
          {t.hasAttachment && (
            <span>
              <span aria-hidden="true">📎</span>
              <span className="sr-only">Has attachment</span>
            </span>
          )}
          <time dateTime={new Date(t.lastAt).toISOString()}>{when(t.lastAt)}</time>
        </span>
      </Link>
    </li>
  );
}

/** The Drafts folder: each draft opens in the compose form where it was left. */
function Drafts({ orgId, mailboxId }: { orgId: string; mailboxId: string }) {
  const list = useCursorList(
    [...mailKey(orgId, mailboxId), 'drafts'],
    (cursor) => api().getMailMailboxesDrafts({ orgId, mailboxId, cursor, limit: 25 }),
    (page) => page.drafts,
  );
  return (
    <section aria-label="Drafts" className="mt-4">
      {list.isPending && <Loading what="drafts" />}
      <ErrorNote error={list.error} />
      {!list.isPending && !list.error && list.items.length === 0 && (
        <p className="text-sm text-slate-700">No drafts.</p>
      )}
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
        {list.items.map((d: Draft) => (
          <li key={d.draftId} className="p-2 text-sm">
            <Link
              to={`${mailPath(orgId, mailboxId)}/compose?draft=${d.draftId}`}
              className="flex min-w-0 flex-col gap-0.5 text-slate-900 no-underline hover:underline sm:flex-row sm:gap-3"
            >
              <span className="truncate font-medium text-red-800 sm:w-44 sm:shrink-0">
                Draft{d.to.length ? ` to ${d.to.join(', ')}` : ''}
              </span>
              <span className="min-w-0 flex-1 truncate">
                {d.subject || '(no subject)'}
                <span className="text-slate-600"> — {d.text.slice(0, 120)}</span>
              </span>
              <time className="shrink-0 text-xs text-slate-700" dateTime={new Date(d.updatedAt).toISOString()}>
                {when(d.updatedAt)}
              </time>
            </Link>
          </li>
        ))}
      </ul>
      <MoreButton hasMore={list.hasMore} loading={list.loadingMore} onMore={list.more} what="drafts" />
    </section>
  );
}
