import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { base64OfText } from '../lib/text';
import { Button, Checkbox, ErrorNote, Loading, PageTitle, Section, TextArea, TextInput } from '../ui/controls';
import { RepoHeader, useRepo } from '../ui/repo-nav';

/** A file added or changed from the browser: one commit on the branch, or on a new branch from it. */
export default function RepoEdit() {
  const { orgId, name, repo } = useRepo();
  const [params] = useSearchParams();
  const ref = params.get('ref') ?? repo.data?.defaultBranch ?? 'main';
  const path = params.get('path') ?? '';
  const blob = useQuery({
    queryKey: ['blob', orgId, name, ref, path],
    queryFn: () => api().getReposBlob({ orgId, name, ref, path }),
    enabled: path !== '',
  });
  // The commit is made on top of the branch as it is now; the API refuses it if the branch moved.
  const branches = useQuery({
    queryKey: ['branches', orgId, name],
    queryFn: () => api().getReposBranches({ orgId, name }),
  });
  const head = branches.data?.branches.find((b) => b.name === ref)?.commit;
  const title = path ? `Edit ${path}` : 'Add a file';
  return (
    <div>
      <RepoHeader orgId={orgId} name={name} />
      <PageTitle title={`${title} · ${name}`}>{title}</PageTitle>
      {(path && blob.isPending) || branches.isPending ? (
        <Loading what="the file" />
      ) : (
        <>
          <ErrorNote error={blob.error ?? branches.error} />
          <EditForm
            orgId={orgId}
            name={name}
            branch={ref}
            path={path || (params.get('dir') ? `${params.get('dir')}/` : '')}
            content={blob.data?.encoding === 'base64' ? '' : (blob.data?.content ?? '')}
            parentCommitId={head}
          />
        </>
      )}
    </div>
  );
}

function EditForm(props: {
  orgId: string;
  name: string;
  branch: string;
  path: string;
  content: string;
  parentCommitId?: string;
}) {
  const [form, setForm, clear] = useDraft('edit', {
    path: props.path,
    content: props.content,
    message: '',
    onNewBranch: false,
    newBranch: '',
  });
  const client = useQueryClient();
  const navigate = useNavigate();
  const commit = useMutation({
    mutationFn: () =>
      api().postReposContents({
        orgId: props.orgId,
        name: props.name,
        body: {
          branch: props.branch,
          ...(props.parentCommitId ? { parentCommitId: props.parentCommitId } : {}),
          message: form.message || `Update ${form.path}`,
          ...(form.onNewBranch ? { newBranch: form.newBranch } : {}),
          changes: [{ action: 'put', path: form.path, content: base64OfText(form.content) }],
        },
      }),
    onSuccess: async (answer) => {
      clear();
      await client.invalidateQueries({
        predicate: (q) => ['repo', 'tree', 'blob', 'branches'].includes(q.queryKey[0] as string),
      });
      navigate(
        `/orgs/${props.orgId}/repos/${props.name}?${new URLSearchParams({ ref: answer.branch, file: form.path })}`,
      );
    },
  });
  return (
    <Section title="Commit">
      <form
        className="grid gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          commit.mutate();
        }}
      >
        <TextInput
          label="File path"
          mono
          isRequired
          value={form.path}
          onChange={(path) => setForm({ ...form, path })}
        />
        <TextArea
          label="Content"
          mono
          rows={16}
          value={form.content}
          onChange={(content) => setForm({ ...form, content })}
        />
        <TextInput
          label="Commit message"
          placeholder={`Update ${form.path}`}
          value={form.message}
          onChange={(message) => setForm({ ...form, message })}
        />
        <Checkbox isSelected={form.onNewBranch} onChange={(onNewBranch) => setForm({ ...form, onNewBranch })}>
          Commit to a new branch (from {props.branch})
        </Checkbox>
        {form.onNewBranch && (
          <TextInput
            label="New branch"
            mono
            isRequired
            value={form.newBranch}
            onChange={(newBranch) => setForm({ ...form, newBranch })}
          />
        )}
        <div>
          <Button type="submit" tone="primary" isDisabled={commit.isPending}>
            Commit to {form.onNewBranch ? form.newBranch || 'the new branch' : props.branch}
          </Button>
          <ErrorNote error={commit.error} />
        </div>
      </form>
    </Section>
  );
}
