import { Link, useSearchParams } from 'react-router';
import { api } from '../../lib/api';
import { useOrgId } from '../../lib/hooks';
import { useCursorList } from '../../lib/query';
import { ErrorNote, Loading, MoreButton, PageTitle } from '../../ui/controls';
import { base, label, WikiShell } from './shell';

/** A snippet with its matched words marked (`<mark>`, which screen readers can announce too). */
function Snippet({ text, highlights }: { text: string; highlights: [number, number][] }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [start, end] of highlights) {
    if (start < at) continue;
    parts.push(text.slice(at, start));
    parts.push(
      <mark key={start} className="rounded bg-yellow-200 px-0.5 text-slate-950">
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  parts.push(text.slice(at));
  return <p className="mt-1 text-slate-800">{parts}</p>;
}

/** Pages whose title or text hold the words searched for, best first. */
export default function WikiSearch() {
  const orgId = useOrgId();
  const [params] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const list = useCursorList(
    ['wiki', orgId, 'search', q],
    (cursor) =>
      q
        ? api().getPagesSearch({ orgId, q, ...(cursor ? { cursor } : {}) })
        : Promise.resolve({ results: [], cursor: null }),
    (page) => page.results,
  );
  return (
    <WikiShell>
      <PageTitle title={q ? `Pages matching ${q}` : 'Search pages'}>
        {q ? `Pages matching “${q}”` : 'Search pages'}
      </PageTitle>
      {!q && <p className="mt-2 text-sm text-slate-700">Type words in the search box to find pages.</p>}
      {q && list.isPending && <Loading what="results" />}
      <ErrorNote error={list.error} />
      {q && !list.isPending && list.items.length === 0 && (
        <p role="status" className="mt-4 text-sm text-slate-700">
          No page matches “{q}”.
        </p>
      )}
      {list.items.length > 0 && (
        <ol aria-label="Results" className="mt-4 space-y-3">
          {list.items.map((r) => (
            <li key={r.page.pageId} className="rounded-lg border border-slate-200 p-3 text-sm">
              <Link to={`${base(orgId)}/${r.page.pageId}`} className="font-medium text-blue-800 underline">
                {label(r.page)}
              </Link>
              <Snippet text={r.snippet} highlights={r.highlights} />
            </li>
          ))}
        </ol>
      )}
      <MoreButton hasMore={list.hasMore} loading={list.loadingMore} onMore={list.more} what="results" />
    </WikiShell>
  );
}
