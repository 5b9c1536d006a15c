import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import type { ChangedFile, CheckRun, RequiredCheckStatus, ReviewThread } from '../../../client';
import { api } from '../lib/api';
import { useDraft } from '../lib/drafts';
import { useCan, useMe, useParam } from '../lib/hooks';
import { useCursorList } from '../lib/query';
import {
  Button,
  ErrorNote,
  Loading,
  MoreButton,
  PageTitle,
  Section,
  SelectField,
  Status,
  TextArea,
  when,
} from '../ui/controls';
import { RepoHeader, useRepo } from '../ui/repo-nav';

type Strategy = 'squash' | 'fast-forward' | 'three-way';
const strategyLabels: Record<Strategy, string> = {
  squash: 'Squash and merge',
  'fast-forward': 'Fast-forward',
  'three-way': 'Merge commit',
};

export default function PullPage() {
  const { orgId, name } = useRepo();
  const number = useParam('number');
  const ids = { orgId, name, number };
  const detail = useQuery({
    queryKey: ['pull', orgId, name, number],
    queryFn: () => api().getReposPullsByNumber(ids),
    // Open: the preview and the checks move on their own (builds, CI); read again every 3 s.
    refetchInterval: (q) => (q.state.data?.pull.state === 'open' ? 3000 : false),
  });
  if (detail.isPending) return <Loading what="the pull request" />;
  if (detail.error) return <ErrorNote error={detail.error} />;
  const { pull, mergeOptions, conflicts, comments } = detail.data;
  return (
    <div>
      <RepoHeader orgId={orgId} name={name} />
      <PageTitle title={`${pull.title} #${pull.number}`}>
        {pull.title} <span className="font-normal text-slate-700">#{pull.number}</span>
      </PageTitle>
      <p className="mt-2 flex flex-wrap items-center gap-2 text-sm">
        <Status value={pull.state} />
        <span>
          {pull.authorName ?? pull.authorEmail ?? pull.authorId} wants to merge <code>{pull.sourceBranch}</code> into{' '}
          <code>{pull.targetBranch}</code> · opened {when(pull.createdAt)}
        </span>
      </p>
      {pull.description && <p className="mt-3 whitespace-pre-wrap text-sm">{pull.description}</p>}
      <Preview pull={pull} orgId={orgId} />
      <Checks ids={ids} open={pull.state === 'open'} />
      <Review ids={ids} revisionId={pull.revisionId} authorId={pull.authorId} open={pull.state === 'open'} />
      {pull.state === 'open' && (
        <Merge ids={ids} options={mergeOptions as Strategy[]} conflicts={conflicts} head={pull.head} />
      )}
      {pull.state === 'merged' && pull.mergeCommitId && (
        <p role="status" className="mt-6 text-sm">
          Merged as <code>{pull.mergeCommitId.slice(0, 12)}</code>.
          {pull.deployment && (
            <>
              {' '}
              Production deployment:{' '}
              <Link to={`/orgs/${orgId}/deployments/${pull.deployment.deploymentId}`}>
                {pull.deployment.deploymentId}
              </Link>{' '}
              ({pull.deployment.status}).
            </>
          )}
        </p>
      )}
      <Files ids={ids} />
      <Conversation ids={ids} comments={comments} />
      <CloseReopen ids={ids} state={pull.state ?? 'open'} />
    </div>
  );
}

type Ids = { orgId: string; name: string; number: string };
type Detail = Awaited<ReturnType<ReturnType<typeof api>['getReposPullsByNumber']>>;

function Preview({ pull, orgId }: { pull: Detail['pull']; orgId: string }) {
  const p = pull.preview;
  return (
    <Section title="Preview">
      {!p ? (
        <p className="text-sm text-slate-700">No preview: no project with previews is linked to this repository.</p>
      ) : (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <Status value={p.state} />
          {p.state === 'ready' ? <a href={p.url}>Open the preview: {p.url}</a> : <span>{p.url}</span>}
          <Link to={`/orgs/${orgId}/deployments/${p.deploymentId}`}>Its deployment</Link>
          {p.commit && <code className="text-xs">{p.commit.slice(0, 12)}</code>}
        </p>
      )}
    </Section>
  );
}

function Checks({ ids, open }: { ids: Ids; open: boolean }) {
  const checks = useCursorList(
    ['checks', ids.orgId, ids.name, ids.number],
    (cursor) => api().getReposPullsChecks({ ...ids, cursor, limit: 50 }),
    (page) => page.checks,
    { poll: () => open },
  );
  const first = useQuery({
    queryKey: ['checks-required', ids.orgId, ids.name, ids.number],
    queryFn: () => api().getReposPullsChecks({ ...ids, limit: 1 }),
    refetchInterval: open ? 3000 : false,
  });
  const required: RequiredCheckStatus[] = first.data?.requiredStatus ?? [];
  return (
    <Section title="Checks">
      {first.data && (
        <p role="status" className="mb-2 text-sm">
          Checks: <Status value={first.data.summary.state} /> ({first.data.summary.counts.success} passed of{' '}
          {first.data.summary.total})
        </p>
      )}
      {checks.isPending && <Loading what="checks" />}
      <ErrorNote error={checks.error} />
      {!checks.isPending && checks.items.length === 0 && (
        <p className="text-sm text-slate-700">No checks reported yet.</p>
      )}
      <ul aria-label="Check runs" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
        {checks.items.map((c: CheckRun) => (
          <li key={c.checkId} className="flex flex-wrap items-center gap-2 p-2 text-sm">
            <Status value={c.state} />
            <span className="font-medium">{c.name}</span>
            {c.summary && <span className="min-w-0 flex-1 truncate text-slate-700">{c.summary}</span>}
            {c.detailsUrl && (
              <a href={c.detailsUrl} aria-label={`Details of ${c.name}`}>
                Details
              </a>
            )}
          </li>
        ))}
      </ul>
      <MoreButton hasMore={checks.hasMore} loading={checks.loadingMore} onMore={checks.more} what="checks" />
      {required.length > 0 && (
        <>
          <h3 className="mt-4 text-sm font-semibold">Required by branch protection</h3>
          <ul className="mt-1 text-sm">
            {required.map((r) => (
              <li key={r.name} className="flex flex-wrap items-center gap-2 py-1">
                <span aria-hidden="true">{r.satisfied ? '✓' : '•'}</span>
                <span className="font-medium">{r.name}</span> <Status value={r.state} />
                <span>{r.satisfied ? 'satisfied' : (r.message ?? 'not satisfied yet')}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Section>
  );
}

function Review({
  ids,
  revisionId,
  authorId,
  open,
}: {
  ids: Ids;
  revisionId: string | null;
  authorId: string;
  open: boolean;
}) {
  const me = useMe().data?.me;
  const canWrite = useCan('git:write');
  const client = useQueryClient();
  const review = useQuery({
    queryKey: ['review', ids.orgId, ids.name, ids.number],
    queryFn: () => api().getReposPullsReview(ids),
    refetchInterval: open ? 5000 : false,
  });
  const approve = useMutation({
    mutationFn: (yes: boolean) =>
      api().postReposPullsApproval({ ...ids, body: { approve: yes, ...(revisionId ? { revisionId } : {}) } }),
    onSuccess: () =>
      client.invalidateQueries({ predicate: (q) => ['review', 'pull'].includes(q.queryKey[0] as string) }),
  });
  const r = review.data;
  return (
    <Section title="Review">
      {review.isPending && <Loading what="the review" />}
      <ErrorNote error={review.error} />
      {r && (
        <>
          <p role="status" className="text-sm">
            {r.approved ? 'Approved' : 'Not approved yet'}: {r.approvals.length} of {r.required} required approval
            {r.required === 1 ? '' : 's'}
            {r.approvals.length > 0 && ` (${r.approvals.map((a) => a.name || a.email).join(', ')})`}.
          </p>
          {canWrite && open && me?.userId !== authorId && (
            <div className="mt-2">
              <Button
                tone={r.viewerApproved ? 'secondary' : 'primary'}
                onPress={() => approve.mutate(!r.viewerApproved)}
                isDisabled={approve.isPending}
              >
                {r.viewerApproved ? 'Withdraw approval' : 'Approve'}
              </Button>
              <ErrorNote error={approve.error} />
            </div>
          )}
        </>
      )}
    </Section>
  );
}

function Merge({
  ids,
  options,
  conflicts,
  head,
}: {
  ids: Ids;
  options: Strategy[];
  conflicts: Detail['conflicts'];
  head: string | null;
}) {
  const canWrite = useCan('git:write');
  const [strategy, setStrategy] = useState<Strategy>(options[0] ?? 'squash');
  const client = useQueryClient();
  const merge = useMutation({
    mutationFn: () =>
      api().postReposPullsMerge({ ...ids, body: { strategy, ...(head ? { sourceCommitId: head } : {}) } }),
    onSuccess: () =>
      client.invalidateQueries({
        predicate: (q) => ['pull', 'pulls', 'review', 'checks'].includes(q.queryKey[0] as string),
      }),
  });
  if (!canWrite) return null;
  const all: Strategy[] = ['squash', 'three-way', 'fast-forward'];
  return (
    <Section title="Merge">
      {conflicts.length > 0 && (
        <div className="mb-3 text-sm">
          <p>These files conflict; resolve them on the branch first:</p>
          <ul className="ml-5 list-disc">
            {conflicts.map((c) => (
              <li key={c.path}>
                <code>{c.path}</code> ({c.kind})
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <SelectField
          label="Strategy"
          className="w-56"
          value={strategy}
          onChange={setStrategy}
          options={all.map((s) => ({
            id: s,
            label: `${strategyLabels[s]}${options.includes(s) ? '' : ' (not possible now)'}`,
          }))}
        />
        <Button tone="primary" onPress={() => merge.mutate()} isDisabled={merge.isPending}>
          Merge pull request
        </Button>
      </div>
      <ErrorNote error={merge.error} />
    </Section>
  );
}

/** The diff, file by file, with line comments (threads) under their line. */
function Files({ ids }: { ids: Ids }) {
  const files = useQuery({
    queryKey: ['pull-files', ids.orgId, ids.name, ids.number],
    queryFn: () => api().getReposPullsFiles(ids),
  });
  const review = useQuery({
    queryKey: ['review', ids.orgId, ids.name, ids.number],
    queryFn: () => api().getReposPullsReview(ids),
  });
  return (
    <Section title="Files changed">
      {files.isPending && <Loading what="the changes" />}
      <ErrorNote error={files.error} />
      {files.data && (
        <>
          <p className="mb-2 text-sm text-slate-700">
            {files.data.total} file{files.data.total === 1 ? '' : 's'} changed
            {files.data.truncated ? ' (the first ones shown)' : ''}.
          </p>
          {files.data.files.map((f) => (
            <FileDiff
              key={f.path}
              ids={ids}
              file={f}
              base={files.data.base}
              head={files.data.head}
              threads={(review.data?.threads ?? []).filter((t) => t.path === f.path)}
            />
          ))}
        </>
      )}
    </Section>
  );
}

interface Row {
  kind: ' ' | '+' | '-' | '@';
  text: string;
  old?: number;
  new?: number;
}

function rowsOf(file: ChangedFile): Row[] {
  const rows: Row[] = [];
  for (const h of file.hunks) {
    rows.push({ kind: '@', text: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@` });
    let o = h.oldStart;
    let n = h.newStart;
    for (const line of h.lines) {
      const kind = line[0];
      if (kind === '+') rows.push({ kind, text: line.slice(1), new: n++ });
      else if (kind === '-') rows.push({ kind, text: line.slice(1), old: o++ });
      else if (kind === ' ') rows.push({ kind, text: line.slice(1), old: o++, new: n++ });
    }
  }
  return rows;
}

function FileDiff(props: { ids: Ids; file: ChangedFile; base: string | null; head: string; threads: ReviewThread[] }) {
  const { file } = props;
  const canWrite = useCan('git:write');
  const [commenting, setCommenting] = useState<string>();
  const rows = rowsOf(file);
  return (
    <section aria-label={`Changes to ${file.path}`} className="mb-4 rounded-lg border border-slate-200">
      <h3 className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-50 px-3 py-2 text-sm">
        <span className="font-mono font-medium">{file.path}</span>
        <span className="text-slate-700">
          {file.change} · <span className="text-green-800">+{file.additions}</span>{' '}
          <span className="text-red-800">−{file.deletions}</span>
        </span>
      </h3>
      {file.binary || file.collapsed ? (
        <p className="p-3 text-sm">{file.binary ? 'A binary file.' : 'A large change: not shown here.'}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse font-mono text-xs">
            <caption className="sr-only">Diff of {file.path}</caption>
            <tbody>
              {rows.map((row, i) => {
                const side = row.kind === '-' ? 'old' : 'new';
                const line = side === 'old' ? row.old : row.new;
                const key = `${side}:${line}`;
                const threads = props.threads.filter((t) => t.line === line && t.side === side && row.kind !== '@');
                const bg =
                  row.kind === '+'
                    ? 'bg-green-50'
                    : row.kind === '-'
                      ? 'bg-red-50'
                      : row.kind === '@'
                        ? 'bg-slate-100 text-slate-700'
                        : '';
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the rows of one diff are fixed
                  <Fragment key={i}>
                    <tr className={bg}>
                      <td className="w-10 select-none px-2 text-right text-slate-600">{row.old ?? ''}</td>
                      <td className="w-10 select-none px-2 text-right text-slate-600">{row.new ?? ''}</td>
                      <td className="w-8">
                        {canWrite && row.kind !== '@' && line !== undefined && (
                          <Button
                            className="min-h-6 px-1 py-0 text-xs"
                            aria-label={`Comment on line ${line} of ${file.path}${side === 'old' ? ' (removed)' : ''}`}
                            onPress={() => setCommenting(commenting === key ? undefined : key)}
                          >
                            +
                          </Button>
                        )}
                      </td>
                      <td className="whitespace-pre px-2">
                        <span aria-hidden="true">{row.kind === '@' ? '' : row.kind}</span>
                        {row.kind === '+' && <span className="sr-only">added: </span>}
                        {row.kind === '-' && <span className="sr-only">removed: </span>}
                        {row.text}
                      </td>
                    </tr>
                    {threads.map((t) => (
                      <tr key={t.id}>
                        <td colSpan={4} className="px-3 py-2 font-sans">
                          <Thread thread={t} />
                        </td>
                      </tr>
                    ))}
                    {commenting === key && line !== undefined && (
                      <tr>
                        <td colSpan={4} className="px-3 py-2 font-sans">
                          <LineComment {...props} line={line} side={side} onDone={() => setCommenting(undefined)} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Thread({ thread }: { thread: ReviewThread }) {
  return (
    <div className="rounded-md border border-slate-200 bg-white p-2 text-sm">
      {thread.outdated && <p className="text-xs text-slate-700">Outdated: a later push changed this line.</p>}
      {thread.comments.map((c) => (
        <div key={c.id} className="py-1">
          <p className="text-xs font-medium">
            {c.author.name} · {when(c.createdAt)}
          </p>
          <p className="whitespace-pre-wrap">{c.deleted ? <em>deleted</em> : c.body}</p>
        </div>
      ))}
    </div>
  );
}

function LineComment(props: {
  ids: Ids;
  file: ChangedFile;
  base: string | null;
  head: string;
  line: number;
  side: 'old' | 'new';
  onDone: () => void;
}) {
  const [body, setBody, clear] = useDraft(`line-${props.file.path}-${props.side}-${props.line}`, '');
  const client = useQueryClient();
  const post = useMutation({
    mutationFn: () =>
      api().postReposPullsReviewComments({
        ...props.ids,
        body: {
          body,
          path: props.file.path,
          line: props.line,
          side: props.side,
          head: props.head,
          ...(props.base ? { base: props.base } : {}),
        },
      }),
    onSuccess: async () => {
      clear();
      await client.invalidateQueries({ queryKey: ['review', props.ids.orgId, props.ids.name, props.ids.number] });
      props.onDone();
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        post.mutate();
      }}
    >
      <TextArea label={`Comment on line ${props.line}`} rows={3} value={body} onChange={setBody} isRequired />
      <div className="mt-2 flex gap-2">
        <Button type="submit" tone="primary" isDisabled={post.isPending}>
          Add comment
        </Button>
        <Button onPress={props.onDone}>Cancel</Button>
      </div>
      <ErrorNote error={post.error} />
    </form>
  );
}

function Conversation({ ids, comments }: { ids: Ids; comments: Detail['comments'] }) {
  const canWrite = useCan('git:write');
  const [body, setBody, clear] = useDraft('comment', '');
  const client = useQueryClient();
  const post = useMutation({
    mutationFn: () => api().postReposPullsComments({ ...ids, body: { body } }),
    onSuccess: async () => {
      clear();
      await client.invalidateQueries({ queryKey: ['pull', ids.orgId, ids.name, ids.number] });
    },
  });
  return (
    <Section title="Conversation">
      {comments.length === 0 && <p className="text-sm text-slate-700">No comments yet.</p>}
      <ul className="space-y-2">
        {comments.map((c) => (
          <li key={c.commentId} className="rounded-md border border-slate-200 p-2 text-sm">
            <p className="text-xs font-medium">
              {c.authorName ?? c.authorEmail ?? c.authorId} · {when(c.createdAt)}
            </p>
            <p className="whitespace-pre-wrap">{c.body}</p>
          </li>
        ))}
      </ul>
      {canWrite && (
        <form
          className="mt-3 max-w-2xl"
          onSubmit={(e) => {
            e.preventDefault();
            post.mutate();
          }}
        >
          <TextArea label="Comment" rows={3} value={body} onChange={setBody} isRequired />
          <Button type="submit" className="mt-2" isDisabled={post.isPending}>
            Comment
          </Button>
          <ErrorNote error={post.error} />
        </form>
      )}
    </Section>
  );
}

function CloseReopen({ ids, state }: { ids: Ids; state: string }) {
  const canWrite = useCan('git:write');
  const client = useQueryClient();
  const act = useMutation({
    mutationFn: () => (state === 'open' ? api().postReposPullsClose(ids) : api().postReposPullsReopen(ids)),
    onSuccess: () =>
      client.invalidateQueries({ predicate: (q) => ['pull', 'pulls'].includes(q.queryKey[0] as string) }),
  });
  if (!canWrite || state === 'merged') return null;
  return (
    <div className="mt-6">
      <Button tone={state === 'open' ? 'danger' : 'secondary'} onPress={() => act.mutate()} isDisabled={act.isPending}>
        {state === 'open' ? 'Close pull request' : 'Reopen pull request'}
      </Button>
      <ErrorNote error={act.error} />
    </div>
  );
}
