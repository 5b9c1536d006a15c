import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { useOrgId } from '../lib/hooks';
import { useCursorList } from '../lib/query';
import { ErrorNote, Loading, MoreButton, PageTitle, SelectField } from '../ui/controls';
import { DeploymentList, RUNNING } from '../ui/deployments';

type StatusFilter =
  | 'any'
  | 'queued'
  | 'building'
  | 'deploying'
  | 'ready'
  | 'error'
  | 'canceled'
  | 'expired'
  | 'skipped';

export default function Deployments() {
  const orgId = useOrgId();
  const [filter, setFilter] = useDraft('filter', {
    status: 'any' as StatusFilter,
    target: 'any' as 'any' | 'production' | 'preview',
  });
  const list = useCursorList(
    ['deployments', orgId, filter],
    (cursor) =>
      api().getDeployments({
        orgId,
        cursor,
        limit: 25,
        ...(filter.status !== 'any' ? { status: filter.status } : {}),
        ...(filter.target !== 'any' ? { target: filter.target } : {}),
      }),
    (page) => page.deployments,
    { poll: (items) => items.some((d) => RUNNING.includes(d.status ?? '')) },
  );
  return (
    <div>
      <PageTitle title="Deployments">Deployments</PageTitle>
      <div className="mt-4 flex flex-wrap gap-3">
        <SelectField
          label="Status"
          className="w-44"
          value={filter.status}
          onChange={(status) => setFilter({ ...filter, status })}
          options={(
            ['any', 'queued', 'building', 'deploying', 'ready', 'error', 'canceled', 'expired', 'skipped'] as const
          ).map((s) => ({ id: s, label: s === 'any' ? 'Any status' : s }))}
        />
        <SelectField
          label="Target"
          className="w-44"
          value={filter.target}
          onChange={(target) => setFilter({ ...filter, target })}
          options={[
            { id: 'any', label: 'Any target' },
            { id: 'production', label: 'Production' },
            { id: 'preview', label: 'Preview' },
          ]}
        />
      </div>
      <div className="mt-4">
        {list.isPending && <Loading what="deployments" />}
        <ErrorNote error={list.error} />
        {!list.isPending && <DeploymentList orgId={orgId} deployments={list.items} />}
        <MoreButton hasMore={list.hasMore} loading={list.loadingMore} onMore={list.more} what="deployments" />
      </div>
    </div>
  );
}
