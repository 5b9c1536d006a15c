import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Deployment } from '../../../client';
import { api } from '../lib/api';
import { hostUrl } from '../lib/hooks';
import { Button, ErrorNote, Status, when } from './controls';

export const RUNNING = ['queued', 'building', 'deploying'];

/** Promote (or roll back to), cancel: each with the API's answer beside its button. */
export function DeploymentActions({
  orgId,
  deployment,
  productionId,
  productionCreatedAt,
}: {
  orgId: string;
  deployment: Deployment;
  productionId?: string;
  productionCreatedAt?: number;
}) {
  const client = useQueryClient();
  const refresh = () =>
    client.invalidateQueries({
      predicate: (q) => ['project', 'deployments', 'deployment'].includes(q.queryKey[0] as string),
    });
  const { deploymentId } = deployment;
  const promote = useMutation({
    mutationFn: () => api().postDeploymentsPromote({ orgId, deploymentId, body: {} }),
    onSuccess: refresh,
  });
  const cancel = useMutation({
    mutationFn: () => api().postDeploymentsCancel({ orgId, deploymentId }),
    onSuccess: refresh,
  });
  const isProduction = productionId === deploymentId;
  const older = productionCreatedAt !== undefined && (deployment.createdAt ?? 0) < productionCreatedAt;
  const label = older ? 'Roll back to this deployment' : 'Promote to production';
  return (
    <div className="flex flex-wrap items-start gap-2">
      {deployment.status === 'ready' && !isProduction && (
        <div>
          <Button
            onPress={() => promote.mutate()}
            isDisabled={promote.isPending}
            aria-label={`${label} ${deploymentId}`}
          >
            {older ? 'Roll back to this' : 'Promote'}
          </Button>
          <ErrorNote error={promote.error} />
        </div>
      )}
      {RUNNING.includes(deployment.status ?? '') && (
        <div>
          <Button
            tone="danger"
            onPress={() => cancel.mutate()}
            isDisabled={cancel.isPending}
            aria-label={`Cancel ${deploymentId}`}
          >
            Cancel
          </Button>
          <ErrorNote error={cancel.error} />
        </div>
      )}
    </div>
  );
}

export function DeploymentList({
  orgId,
  deployments,
  productionId,
}: {
  orgId: string;
  deployments: Deployment[];
  productionId?: string;
}) {
  const production = deployments.find((d) => d.deploymentId === productionId);
  if (deployments.length === 0) return <p className="text-sm text-slate-700">No deployments yet.</p>;
  return (
    <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
      {deployments.map((d) => (
        <li key={d.deploymentId} className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3">
          <Status value={d.status} />
          <div className="min-w-0 flex-1">
            <Link to={`/orgs/${orgId}/deployments/${d.deploymentId}`} className="font-mono text-sm">
              {d.deploymentId}
            </Link>
            {d.deploymentId === productionId && (
              <span className="ml-2 rounded bg-blue-100 px-1.5 py-0.5 text-xs font-medium text-blue-900">
                Production
              </span>
            )}
            <p className="truncate text-sm text-slate-700">
              {d.target}
              {d.branch ? ` · ${d.branch}` : ''}
              {d.commitMessage ? ` · ${d.commitMessage}` : ''}
              {d.pullRequest ? ` · pull request #${d.pullRequest.number}` : ''} · {when(d.createdAt)}
            </p>
          </div>
          {d.status === 'ready' && d.host && (
            <a href={hostUrl(d.host)} className="text-sm" aria-label={`Open ${d.deploymentId}`}>
              Open
            </a>
          )}
          <DeploymentActions
            orgId={orgId}
            deployment={d}
            productionId={productionId}
            productionCreatedAt={production?.createdAt}
          />
        </li>
      ))}
    </ul>
  );
}
