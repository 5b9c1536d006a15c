import { useSearchParams } from 'react-router';
import { api } from '../lib/api';
import { useCursorList } from '../lib/query';
import { ErrorNote, Loading, MoreButton, PageTitle, when } from '../ui/controls';
import { RepoHeader, useRepo } from '../ui/repo-nav';

export default function RepoCommits() {
  const { orgId, name, repo } = useRepo();
  const [params] = useSearchParams();
  const ref = params.get('ref') ?? repo.data?.defaultBranch;
  const list = useCursorList(
    ['commits', orgId, name, ref],
    (cursor) => api().getReposCommits({ orgId, name, ...(ref ? { ref } : {}), cursor, limit: 30 }),
    (page) => page.commits,
  );
  return (
    <div>
      <RepoHeader orgId={orgId} name={name} />
      <PageTitle title={`Commits · ${name}`}>Commits{ref ? ` on ${ref}` : ''}</PageTitle>
      {list.isPending && <Loading what="commits" />}
      <ErrorNote error={list.error} />
      <ol className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200">
        {list.items.map((c) => (
          <li key={c.id} className="p-3 text-sm">
            <p className="font-medium">{c.message.split('\n')[0]}</p>
            <p className="text-slate-700">
              <code>{c.id.slice(0, 12)}</code> · {c.author.name ?? c.author.email ?? 'unknown'} ·{' '}
              {when(c.committedAt ?? c.author.date)}
            </p>
          </li>
        ))}
      </ol>
      <MoreButton hasMore={list.hasMore} loading={list.loadingMore} onMore={list.more} what="commits" />
    </div>
  );
}
