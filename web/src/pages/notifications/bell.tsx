import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api } from '../../lib/api';
import { useMe } from '../../lib/hooks';

/** The notices the bell counts: the newest page (100), read again on focus and every minute. */
export const BELL_PAGE = 100;
export const unreadKey = ['notifications', 'bell'] as const;

/**
 * The header's bell: how many of the person's newest notices are unread (across organizations, as
 * `GET /v1/me/notifications` answers them), a link to the notifications page. Read again when the
 * window regains focus and once a minute, never faster.
 */
export function NotificationBell() {
  const { orgId: here } = useParams();
  const me = useMe().data?.me;
  const orgId = here ?? me?.orgs[0]?.orgId;
  const q = useQuery({
    queryKey: unreadKey,
    queryFn: () => api().getMeNotifications({ limit: BELL_PAGE }),
    enabled: me?.kind === 'user',
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
  });
  if (!orgId || me?.kind !== 'user') return null;
  const notices = q.data?.notices ?? [];
  const unread = notices.filter((n) => !n.read).length;
  const more = unread === notices.length && q.data?.cursor ? '+' : '';
  const label = q.data ? `Notifications, ${unread === 0 ? 'none' : `${unread}${more}`} unread` : 'Notifications';
  return (
    <Link
      to={`/orgs/${orgId}/notifications`}
      aria-label={label}
      title={label}
      className="relative inline-flex size-10 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-900 no-underline hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {unread > 0 && (
        <span
          aria-hidden="true"
          className="absolute -right-1.5 -top-1.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs font-semibold leading-5 text-white"
        >
          {unread > 99 ? '99+' : `${unread}${more}`}
        </span>
      )}
    </Link>
  );
}
