import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, api } from '../lib/api';
import type { Token } from '../lib/highlight';
import { useCan } from '../lib/hooks';
import { lfsMatcher, textOfBase64 } from '../lib/text';
import { ErrorNote, Loading, PageTitle, SelectField } from '../ui/controls';
import { RepoHeader, useRepo } from '../ui/repo-nav';

export default function RepoCode() {
  const { orgId, name, repo } = useRepo();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const canWrite = useCan('git:write');
  const ref = params.get('ref') ?? repo.data?.defaultBranch ?? '';
  const path = params.get('path') ?? '';
  const file = params.get('file');
  const base = `/orgs/${orgId}/repos/${name}`;
  const at = (next: Record<string, string>) => `${base}?${new URLSearchParams({ ref, ...next })}`;
  return (
    <div>
      <RepoHeader orgId={orgId} name={name} />
      <PageTitle title={file ? `${file} · ${name}` : name}>{name}</PageTitle>
      {repo.isPending && <Loading what="the repository" />}
      <ErrorNote error={repo.error} />
      {repo.data?.empty && (
        <p className="mt-4 text-sm">
          This repository is empty. Push to <code className="break-all">{repo.data.cloneUrl}</code>
          {canWrite && (
            <>
              {' '}
              or <Link to={`${base}/edit?ref=${encodeURIComponent(repo.data.defaultBranch)}`}>add a file</Link>
            </>
          )}
          .
        </p>
      )}
      {repo.data && !repo.data.empty && (
        <>
          <div className="mt-4 flex flex-wrap items-end gap-3">
            <SelectField
              label="Branch"
              className="w-56"
              value={ref}
              onChange={(branch) => navigate(`${base}?${new URLSearchParams({ ref: branch, path })}`)}
              options={repo.data.branches.map((b) => ({ id: b, label: b }))}
            />
            {canWrite && (
              <Link
                to={`${base}/edit?${new URLSearchParams({ ref, dir: path })}`}
                className="inline-flex min-h-10 items-center rounded-md border border-slate-300 px-3 text-sm no-underline"
              >
                Add a file
              </Link>
            )}
            <span className="text-sm text-slate-700">
              Clone: <code className="break-all">{repo.data.cloneUrl}</code>
            </span>
          </div>
          <Breadcrumb name={name} path={file ?? path} at={at} />
          {file ? (
            <FileView orgId={orgId} name={name} gitRef={ref} path={file} canWrite={canWrite} />
          ) : (
            <Tree orgId={orgId} name={name} gitRef={ref} path={path} at={at} />
          )}
        </>
      )}
    </div>
  );
}

function Breadcrumb({ name, path, at }: { name: string; path: string; at: (p: Record<string, string>) => string }) {
  const parts = path.split('/').filter(Boolean);
  return (
    <nav aria-label="Path" className="mt-4 text-sm">
      <ol className="flex flex-wrap gap-1">
        <li>
          <Link to={at({ path: '' })}>{name}</Link>
        </li>
        {parts.map((part, i) => (
          <li key={parts.slice(0, i + 1).join('/')}>
            /{' '}
            {i === parts.length - 1 ? (
              <span aria-current="page">{part}</span>
            ) : (
              <Link to={at({ path: parts.slice(0, i + 1).join('/') })}>{part}</Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** `.gitattributes` of the commit, for the files it sends to Git LFS. */
function useLfs(orgId: string, name: string, ref: string) {
  const attrs = useQuery({
    queryKey: ['gitattributes', orgId, name, ref],
    queryFn: async () => {
      try {
        const blob = await api().getReposBlob({ orgId, name, ref, path: '.gitattributes' });
        return blob.encoding === 'base64' ? textOfBase64(blob.content ?? '') : (blob.content ?? '');
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return '';
        throw err;
      }
    },
  });
  return lfsMatcher(attrs.data);
}

function Tree(props: {
  orgId: string;
  name: string;
  gitRef: string;
  path: string;
  at: (p: Record<string, string>) => string;
}) {
  const { orgId, name, gitRef, path } = props;
  const tree = useQuery({
    queryKey: ['tree', orgId, name, gitRef, path],
    queryFn: () => api().getReposTree({ orgId, name, ref: gitRef, ...(path ? { path } : {}) }),
  });
  const isLfs = useLfs(orgId, name, gitRef);
  if (tree.isPending) return <Loading what="files" />;
  if (tree.error) return <ErrorNote error={tree.error} />;
  const entries = [...tree.data.entries].sort((a, b) =>
    a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'dir' ? -1 : 1,
  );
  return (
    <ul aria-label="Files" className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200">
      {entries.map((e) => (
        <li key={e.path} className="flex items-center gap-3 px-3 py-2 text-sm">
          <span aria-hidden="true" className="w-4">
            {e.type === 'dir' ? '▸' : '·'}
          </span>
          <Link
            to={props.at(e.type === 'dir' ? { path: e.path } : { path, file: e.path })}
            className="min-w-0 truncate"
          >
            {e.name}
            {e.type === 'dir' ? '/' : ''}
          </Link>
          {e.type === 'file' && isLfs(e.path) && (
            <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">LFS</span>
          )}
          {e.size !== null && <span className="ml-auto text-xs text-slate-700">{e.size.toLocaleString()} bytes</span>}
        </li>
      ))}
    </ul>
  );
}

function FileView(props: { orgId: string; name: string; gitRef: string; path: string; canWrite: boolean }) {
  const { orgId, name, gitRef, path } = props;
  const blob = useQuery({
    queryKey: ['blob', orgId, name, gitRef, path],
    queryFn: () => api().getReposBlob({ orgId, name, ref: gitRef, path }),
  });
  const text = blob.data?.content !== undefined && blob.data.encoding !== 'base64' ? blob.data.content : undefined;
  const [tokens, setTokens] = useState<Token[][]>();
  useEffect(() => {
    setTokens(undefined);
    if (text === undefined || text.length > 500_000) return;
    let live = true;
    // The highlighter and the grammar load now, not with the app.
    void import('../lib/highlight')
      .then(({ highlight }) => highlight(text, path))
      .then((out) => live && setTokens(out))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [text, path]);
  if (blob.isPending) return <Loading what="the file" />;
  if (blob.error) return <ErrorNote error={blob.error} />;
  const b = blob.data;
  return (
    <section aria-label={`File ${path}`} className="mt-3 rounded-lg border border-slate-200">
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 bg-slate-50 px-3 py-2 text-sm">
        <span className="font-mono">{path}</span>
        <span className="text-slate-700">{b.size.toLocaleString()} bytes</span>
        {b.lfs && (
          <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">
            Stored with Git LFS
          </span>
        )}
        {props.canWrite && text !== undefined && !b.lfs && (
          <Link
            className="ml-auto"
            to={`/orgs/${orgId}/repos/${name}/edit?${new URLSearchParams({ ref: gitRef, path })}`}
            aria-label={`Edit ${path}`}
          >
            Edit
          </Link>
        )}
      </div>
      {b.lfs ? (
        <p className="p-3 text-sm">
          A Git LFS object of {b.lfs.size.toLocaleString()} bytes (<code>{b.lfs.oid.slice(0, 16)}…</code>).
          {b.lfs.url && (
            <>
              {' '}
              <a href={b.lfs.url}>Download it</a>.
            </>
          )}
        </p>
      ) : b.tooLarge ? (
        <p className="p-3 text-sm">This file is too large to show here.</p>
      ) : text === undefined ? (
        <p className="p-3 text-sm">A binary file.</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
        <pre tabIndex={0} className="overflow-x-auto p-3 text-xs leading-5">
          <code data-highlighted={tokens ? 'true' : undefined}>
            {tokens
              ? tokens.map((line, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one file
                  <span key={i} className="block min-h-5">
                    {line.map((t, j) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the tokens of one line
                      <span key={j} style={t.color ? { color: t.color } : undefined}>
                        {t.content}
                      </span>
                    ))}
                  </span>
                ))
              : text}
          </code>
        </pre>
      )}
    </section>
  );
}
