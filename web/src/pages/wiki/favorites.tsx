import { Link } from 'react-router';
import { api } from '../../lib/api';
import { useOrgId } from '../../lib/hooks';
import { useCursorList } from '../../lib/query';
import { ErrorNote, Loading, MoreButton, PageTitle, when } from '../../ui/controls';
import { base, keys, label, WikiShell } from './shell';

/** The person's favorite pages, newest first. */
export default function WikiFavorites() {
  const orgId = useOrgId();
  const list = useCursorList(
    [...keys.favorites(orgId)],
    (cursor) => api().getFavorites({ orgId, ...(cursor ? { cursor } : {}) }),
    (page) => page.favorites,
  );
  return (
    <WikiShell>
      <PageTitle title="Favorite pages">Favorite pages</PageTitle>
      {list.isPending && <Loading what="favorites" />}
      <ErrorNote error={list.error} />
      {!list.isPending && list.items.length === 0 && (
        <p className="mt-4 text-sm text-slate-700">No favorites yet. Star a page to find it here.</p>
      )}
      <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200">
        {list.items.map((f) => (
          <li key={f.page.pageId} className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
            <Link to={`${base(orgId)}/${f.page.pageId}`} className="font-medium text-blue-800 underline">
              {label(f.page)}
            </Link>
            <span className="text-slate-700">starred {when(f.favoritedAt)}</span>
          </li>
        ))}
      </ul>
      <MoreButton hasMore={list.hasMore} loading={list.loadingMore} onMore={list.more} what="favorites" />
    </WikiShell>
  );
}
