import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Notice } from '../../../../client';
import { api } from '../../lib/api';
import { useMe, useOrgId } from '../../lib/hooks';
import { useCursorList } from '../../lib/query';
import { Button, Checkbox, Done, ErrorNote, Loading, MoreButton, PageTitle, when } from '../../ui/controls';
import { NotifyNav } from './nav';

const PAGE = 25;

/** The person's notices, newest first, across organizations: read, acknowledge, page on. */
export default function Notices() {
  const orgId = useOrgId();
  const client = useQueryClient();
  const orgs = useMe().data?.me.orgs ?? [];
  const [unreadOnly, setUnreadOnly] = useState(false);
  const list = useCursorList(
    ['notifications', 'list'],
    (cursor) => api().getMeNotifications({ limit: PAGE, ...(cursor ? { cursor } : {}) }),
    (page) => page.notices,
  );
  const unread = list.items.filter((n) => !n.read);
  const shown = unreadOnly ? unread : list.items;
  const readAll = useMutation({
    mutationFn: async () => {
      const ids = unread.map((n) => n.noticeId);
      for (let i = 0; i < ids.length; i += 100) {
        await api().postMeNotificationsRead({ body: { noticeIds: ids.slice(i, i + 100) } });
      }
      return ids.length;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['notifications'] }),
  });
  return (
    <div>
      <PageTitle title="Notifications">Notifications</PageTitle>
      <NotifyNav orgId={orgId} />
      <div className="mt-4 flex flex-wrap items-center gap-4">
        <Checkbox isSelected={unreadOnly} onChange={setUnreadOnly}>
          Unread only
        </Checkbox>
        <Button onPress={() => readAll.mutate()} isDisabled={readAll.isPending || unread.length === 0}>
          Mark all as read
        </Button>
        <p className="text-sm text-slate-700">{list.items.length > 0 && `${unread.length} unread of those shown`}</p>
      </div>
      <ErrorNote error={readAll.error} />
      {readAll.isSuccess && <Done>Marked {readAll.data} as read.</Done>}
      <div className="mt-4">
        {list.isPending && <Loading what="notifications" />}
        <ErrorNote error={list.error} />
        {!list.isPending && shown.length === 0 && !list.error && (
          <p className="text-sm text-slate-700">{unreadOnly ? 'No unread notifications.' : 'No notifications yet.'}</p>
        )}
        {shown.length > 0 && (
          <ul aria-label="Notifications" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
            {shown.map((n) => (
              <NoticeRow key={n.noticeId} n={n} orgName={orgs.find((o) => o.orgId === n.orgId)?.name} />
            ))}
          </ul>
        )}
        <MoreButton hasMore={list.hasMore} loading={list.loadingMore} onMore={list.more} what="notifications" />
      </div>
    </div>
  );
}

function NoticeRow({ n, orgName }: { n: Notice; orgName: string | undefined }) {
  const client = useQueryClient();
  const done = () => client.invalidateQueries({ queryKey: ['notifications'] });
  const read = useMutation({
    mutationFn: () => api().postMeNotificationsRead({ body: { noticeIds: [n.noticeId] } }),
    onSuccess: done,
  });
  const ack = useMutation({
    mutationFn: async () => {
      const answer = await api().postMeNotificationsAck({ noticeId: n.noticeId });
      if (!n.read) await api().postMeNotificationsRead({ body: { noticeIds: [n.noticeId] } });
      return answer;
    },
    onSuccess: done,
  });
  const needsAck = n.requireAck === true && !n.ackedAt;
  return (
    <li className={`flex flex-wrap items-start gap-x-4 gap-y-2 p-3 text-sm ${n.read ? '' : 'bg-blue-50'}`}>
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-2">
          {!n.read && (
            <span className="size-2 shrink-0 rounded-full bg-blue-700">
              <span className="sr-only">Unread:</span>
            </span>
          )}
          <span className={n.read ? '' : 'font-semibold'}>{n.title}</span>
        </p>
        {n.body && <p className="mt-1 whitespace-pre-wrap break-words text-slate-800">{n.body}</p>}
        <p className="mt-1 text-xs text-slate-700">
          {n.event}
          {orgName ? ` · ${orgName}` : ''}
          {n.createdAt ? ` · ${when(n.createdAt)}` : ''}
          {n.ackedAt ? ` · acknowledged ${when(n.ackedAt)}` : ''}
        </p>
        {n.url && (
          <p className="mt-1">
            <a href={n.url} className="break-all">
              Open <span className="sr-only">{n.title}</span>
            </a>
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        {needsAck && (
          <Button
            tone="primary"
            onPress={() => ack.mutate()}
            isDisabled={ack.isPending}
            aria-label={`Acknowledge ${n.title}`}
          >
            Acknowledge
          </Button>
        )}
        {!n.read && (
          <Button onPress={() => read.mutate()} isDisabled={read.isPending} aria-label={`Mark ${n.title} as read`}>
            Mark read
          </Button>
        )}
      </div>
      <div className="basis-full empty:hidden">
        <ErrorNote error={read.error ?? ack.error} />
      </div>
    </li>
  );
}
