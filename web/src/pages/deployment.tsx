import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { BuildLogLine } from '../../../client';
import { api } from '../lib/api';
import { hostUrl, useCan, useOrgId, useParam } from '../lib/hooks';
import { Button, ErrorNote, Loading, PageTitle, Section, Status, when } from '../ui/controls';
import { DeploymentActions, RUNNING } from '../ui/deployments';

export default function DeploymentPage() {
  const orgId = useOrgId();
  const deploymentId = useParam('deploymentId');
  const canWrite = useCan('deployments:write');
  const q = useQuery({
    queryKey: ['deployment', orgId, deploymentId],
    queryFn: () => api().getDeploymentsByDeploymentId({ orgId, deploymentId }),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data) return false;
      const d = data.deployment;
      // A production build goes live just after it is ready: follow it until production points at it.
      const goingLive =
        d.target === 'production' &&
        d.status === 'ready' &&
        data.project.productionDeploymentId !== d.deploymentId &&
        Date.now() - (d.readyAt ?? 0) < 30_000;
      return RUNNING.includes(d.status ?? '') || goingLive ? 2000 : false;
    },
  });
  if (q.isPending) return <Loading what="the deployment" />;
  if (q.error) return <ErrorNote error={q.error} />;
  const { deployment: d, project, productionHost } = q.data;
  const isProduction = project.productionDeploymentId === d.deploymentId;
  return (
    <div>
      <p className="text-sm">
        <Link to={`/orgs/${orgId}/projects/${project.projectId}`}>{project.name}</Link>
      </p>
      <PageTitle title={`Deployment ${d.deploymentId}`}>
        Deployment <span className="font-mono text-xl">{d.deploymentId}</span>
      </PageTitle>
      <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium">Status</dt>
        <dd>
          <Status value={d.status} /> {isProduction && <span className="ml-1">Serving production</span>}
          {d.error && <span className="ml-2 text-red-800">{d.error}</span>}
          {d.reason && <span className="ml-2">{d.reason}</span>}
        </dd>
        <dt className="font-medium">Target</dt>
        <dd>{d.target}</dd>
        {d.branch && (
          <>
            <dt className="font-medium">Branch</dt>
            <dd>
              {d.branch}
              {d.commitSha ? ` at ${d.commitSha.slice(0, 12)}` : ''}
              {d.commitMessage ? `: ${d.commitMessage}` : ''}
            </dd>
          </>
        )}
        <dt className="font-medium">Created</dt>
        <dd>{when(d.createdAt)}</dd>
        {d.host && (
          <>
            <dt className="font-medium">Address</dt>
            <dd>{d.status === 'ready' ? <a href={hostUrl(d.host)}>{d.host}</a> : d.host}</dd>
          </>
        )}
        {isProduction && productionHost && (
          <>
            <dt className="font-medium">Production</dt>
            <dd>
              <a href={hostUrl(productionHost)}>{productionHost}</a>
            </dd>
          </>
        )}
      </dl>
      {canWrite && (
        <div className="mt-4 flex flex-wrap gap-2">
          <DeploymentActions orgId={orgId} deployment={d} productionId={project.productionDeploymentId} />
          <Redeploy orgId={orgId} deploymentId={d.deploymentId} />
        </div>
      )}
      <BuildLog orgId={orgId} deploymentId={d.deploymentId} />
    </div>
  );
}

function Redeploy({ orgId, deploymentId }: { orgId: string; deploymentId: string }) {
  const navigate = useNavigate();
  const redeploy = useMutation({
    mutationFn: () => api().postDeploymentsRedeploy({ orgId, deploymentId }),
    onSuccess: ({ deployment }) => navigate(`/orgs/${orgId}/deployments/${deployment.deploymentId}`),
  });
  return (
    <div>
      <Button onPress={() => redeploy.mutate()} isDisabled={redeploy.isPending}>
        Redeploy
      </Button>
      <ErrorNote error={redeploy.error} />
    </div>
  );
}

/** The build log, read page after page with the API's cursor while the build runs. */
function BuildLog({ orgId, deploymentId }: { orgId: string; deploymentId: string }) {
  const [lines, setLines] = useState<BuildLogLine[]>([]);
  const [end, setEnd] = useState<{ status: string; error: string | null }>();
  const [error, setError] = useState<unknown>();
  const client = useQueryClient();
  const box = useRef<HTMLPreElement>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cursor: string | undefined;
    setLines([]);
    setEnd(undefined);
    const read = async () => {
      try {
        const page = await api().getDeploymentsBuildLog({ orgId, deploymentId, cursor });
        if (stopped) return;
        if (page.lines.length > 0) setLines((before) => [...before, ...page.lines]);
        setError(undefined);
        if (page.done) {
          setEnd({ status: page.status, error: page.error });
          void client.invalidateQueries({ queryKey: ['deployment', orgId, deploymentId] });
          return;
        }
        cursor = page.cursor ?? cursor;
        timer = setTimeout(read, page.lines.length > 0 ? 250 : 1000);
      } catch (err) {
        if (stopped) return;
        setError(err);
        timer = setTimeout(read, 3000);
      }
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [orgId, deploymentId, client]);
  // Follow the end of the log while it grows (when the reader is at the end).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs as lines arrive
  useEffect(() => {
    const el = box.current;
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight < 80) el.scrollTop = el.scrollHeight;
  }, [lines.length]);
  return (
    <Section title="Build log">
      <pre
        ref={box}
        role="log"
        aria-label="Build log"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
        tabIndex={0}
        className="max-h-[60vh] overflow-auto rounded-lg bg-slate-900 p-3 text-xs leading-5 text-slate-100 outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
      >
        {lines.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: log lines are appended only
          <span key={i} className="block whitespace-pre-wrap break-words">
            {l.m}
          </span>
        ))}
        {lines.length === 0 && !end && 'Waiting for the build to start…'}
      </pre>
      <p role="status" className="mt-2 text-sm">
        {end ? (
          <>
            Build finished: <Status value={end.status} /> {end.error}
          </>
        ) : (
          'The build is running; the log follows it.'
        )}
      </p>
      <ErrorNote error={error} />
    </Section>
  );
}
