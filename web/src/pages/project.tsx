import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { hostUrl, useCan } from '../lib/hooks';
import { useCursorList } from '../lib/query';
import { Button, ErrorNote, Loading, MoreButton, PageTitle, Section, SelectField, TextInput } from '../ui/controls';
import { DeploymentList, RUNNING } from '../ui/deployments';
import { ProjectNav, useProject } from '../ui/project-nav';

export default function ProjectPage() {
  const { orgId, projectId, data, error, isPending, refetch } = useProject();
  const canDeploy = useCan('deployments:write');
  const list = useCursorList(
    ['deployments', orgId, projectId],
    (cursor) => api().getDeployments({ orgId, projectId, cursor, limit: 20 }),
    (page) => page.deployments,
    // While a build runs, the list follows it.
    { poll: (items) => items.some((d) => RUNNING.includes(d.status ?? '')) },
  );
  const running = list.items.some((d) => RUNNING.includes(d.status ?? ''));
  // A build that ended may have changed production.
  useEffect(() => {
    if (!running) void refetch();
  }, [running, refetch]);
  if (isPending) return <Loading what="the project" />;
  if (error) return <ErrorNote error={error} />;
  const { project, productionHost, repo } = data;
  return (
    <div>
      <PageTitle title={project.name}>{project.name}</PageTitle>
      <ProjectNav orgId={orgId} projectId={projectId} />
      <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium">Production</dt>
        <dd>{productionHost ? <a href={hostUrl(productionHost)}>{productionHost}</a> : 'Nothing in production yet'}</dd>
        <dt className="font-medium">Framework</dt>
        <dd>{project.framework}</dd>
        <dt className="font-medium">Repository</dt>
        <dd>{repo ? `${repo.name} (production branch ${project.productionBranch})` : 'None linked'}</dd>
      </dl>
      {canDeploy && <Deploy orgId={orgId} projectId={projectId} branch={project.productionBranch} repo={repo?.name} />}
      <Section title="Deployments">
        {list.isPending && <Loading what="deployments" />}
        <ErrorNote error={list.error} />
        <DeploymentList orgId={orgId} deployments={list.items} productionId={project.productionDeploymentId} />
        <MoreButton hasMore={list.hasMore} loading={list.loadingMore} onMore={list.more} what="deployments" />
      </Section>
    </div>
  );
}

function Deploy(props: { orgId: string; projectId: string; branch: string; repo?: string }) {
  const [form, setForm, clear] = useDraft('deploy', {
    branch: props.branch,
    target: 'production' as 'production' | 'preview',
  });
  const navigate = useNavigate();
  const deploy = useMutation({
    mutationFn: async () => {
      // A deployment of git names its commit: the branch's head now.
      const { branches } = await api().getReposBranches({ orgId: props.orgId, name: props.repo ?? '' });
      const head = branches.find((b) => b.name === form.branch)?.commit;
      if (!head) throw new Error(`The repository ${props.repo} has no branch ${form.branch}.`);
      return api().postProjectsDeployments({
        orgId: props.orgId,
        projectId: props.projectId,
        body: { source: 'git', branch: form.branch, commitSha: head, target: form.target },
      });
    },
    onSuccess: ({ deployment }) => {
      clear();
      navigate(`/orgs/${props.orgId}/deployments/${deployment.deploymentId}`);
    },
  });
  if (!props.repo) {
    return (
      <Section title="Deploy">
        <p className="text-sm text-slate-700">
          Link a repository in the settings to deploy its branches from here, or deploy a folder with the command line:{' '}
          <code>platform deploy</code>.
        </p>
      </Section>
    );
  }
  return (
    <Section title="Deploy">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          deploy.mutate();
        }}
      >
        <TextInput label="Branch" mono value={form.branch} onChange={(branch) => setForm({ ...form, branch })} />
        <SelectField
          label="Target"
          className="w-40"
          value={form.target}
          onChange={(target) => setForm({ ...form, target })}
          options={[
            { id: 'production', label: 'Production' },
            { id: 'preview', label: 'Preview' },
          ]}
        />
        <Button type="submit" tone="primary" isDisabled={deploy.isPending}>
          Deploy
        </Button>
      </form>
      <ErrorNote error={deploy.error} />
    </Section>
  );
}
