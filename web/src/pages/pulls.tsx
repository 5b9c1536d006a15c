import { Link } from 'react-router';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { useCan } from '../lib/hooks';
import { useCursorList } from '../lib/query';
import { ErrorNote, Loading, MoreButton, PageTitle, SelectField, Status, when } from '../ui/controls';
import { RepoHeader, useRepo } from '../ui/repo-nav';

export default function Pulls() {
  const { orgId, name } = useRepo();
  const canWrite = useCan('git:write');
  const [filter, setFilter] = useDraft('filter', { state: 'open' as 'open' | 'closed' | 'merged' });
  const list = useCursorList(
    ['pulls', orgId, name, filter.state],
    (cursor) => api().getReposPulls({ orgId, name, state: filter.state, cursor, limit: 25 }),
    (page) => page.pulls,
  );
  const base = `/orgs/${orgId}/repos/${name}`;
  return (
    <div>
      <RepoHeader orgId={orgId} name={name} />
      <PageTitle title={`Pull requests · ${name}`}>Pull requests</PageTitle>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <SelectField
          label="State"
          className="w-40"
          value={filter.state}
          onChange={(state) => setFilter({ state })}
          options={[
            { id: 'open', label: 'Open' },
            { id: 'merged', label: 'Merged' },
            { id: 'closed', label: 'Closed' },
          ]}
        />
        {canWrite && (
          <Link
            to={`${base}/pulls/new`}
            className="inline-flex min-h-10 items-center rounded-md bg-blue-700 px-3 text-sm font-medium text-white no-underline"
            style={{ color: 'white' }}
          >
            New pull request
          </Link>
        )}
      </div>
      <div className="mt-4">
        {list.isPending && <Loading what="pull requests" />}
        <ErrorNote error={list.error} />
        {!list.isPending && list.items.length === 0 && (
          <p className="text-sm text-slate-700">No {filter.state} pull requests.</p>
        )}
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {list.items.map((p) => (
            <li key={p.pullRequestId} className="p-3 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <Status value={p.state} />
                <Link to={`${base}/pulls/${p.number}`} className="font-semibold">
                  {p.title}
                </Link>
                <span className="text-slate-700">#{p.number}</span>
              </div>
              <p className="mt-1 text-slate-700">
                {p.sourceBranch} → {p.targetBranch} · {p.authorName ?? p.authorEmail ?? p.authorId} ·{' '}
                {when(p.createdAt)}
              </p>
            </li>
          ))}
        </ul>
        <MoreButton hasMore={list.hasMore} loading={list.loadingMore} onMore={list.more} what="pull requests" />
      </div>
    </div>
  );
}
