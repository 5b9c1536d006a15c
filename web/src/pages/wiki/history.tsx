import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { diffLines } from 'diff';
import { useMemo, useState } from 'react';
import { api } from '../../lib/api';
import { useOrgId, useParam } from '../../lib/hooks';
import { useCursorList } from '../../lib/query';
import { Button, Done, ErrorNote, Loading, MoreButton, PageTitle, Section, SelectField, when } from '../../ui/controls';
import { keys, label, useCanWritePages, WikiShell } from './shell';
import { Crumbs, usePage } from './view';

interface Version {
  n: number;
  title: string;
  size: number;
  createdAt: number;
  createdBy: string;
  authorName: string | null;
  restoredFrom: number | null;
}

const authorOf = (v: Version) => v.authorName ?? (v.createdBy.startsWith('usr_') ? 'a member' : `key ${v.createdBy}`);

/** A page's history: every saved version, a diff between any two, and restoring one. */
export default function WikiHistory() {
  const orgId = useOrgId();
  const pageId = useParam('pageId');
  const page = usePage(orgId, pageId);
  const canWrite = useCanWritePages();
  const list = useCursorList(
    [...keys.versions(orgId, pageId)],
    (cursor) => api().getPagesVersions({ orgId, pageId, limit: 100, ...(cursor ? { cursor } : {}) }),
    (res) => res.versions,
  );
  const versions = list.items as Version[];
  const current = page.data?.page.contentVersion;
  const [restoring, setRestoring] = useState<number | undefined>();
  const [restored, setRestored] = useState('');
  const client = useQueryClient();
  const restore = useMutation({
    mutationFn: (n: number) =>
      api().postPagesVersionsRestore({ orgId, pageId, n, body: current ? { baseVersion: current } : {} }),
    onSuccess: async (res, n) => {
      setRestoring(undefined);
      setRestored(`Restored version ${n} as version ${res.version.n}.`);
      await client.invalidateQueries({ queryKey: keys.all(orgId) });
    },
  });
  const title = page.data?.page.title ?? 'page';
  return (
    <WikiShell open={page.data ? page.data.breadcrumbs.map((b) => b.pageId) : undefined}>
      {page.data && (
        <Crumbs
          orgId={orgId}
          trail={[...page.data.breadcrumbs, { pageId, title: page.data.page.title, icon: page.data.page.icon }]}
        />
      )}
      <PageTitle title={`History of ${title}`}>History of {page.data ? label(page.data.page) : 'the page'}</PageTitle>
      <ErrorNote error={page.error ?? list.error} />
      {list.isPending && <Loading what="versions" />}
      {restored && <Done>{restored}</Done>}
      {versions.length > 0 && (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full min-w-[36rem] text-left text-sm">
            <caption className="sr-only">Saved versions, newest first</caption>
            <thead className="border-b border-slate-300">
              <tr>
                <th scope="col" className="py-2 pr-3">
                  Version
                </th>
                <th scope="col" className="py-2 pr-3">
                  Saved
                </th>
                <th scope="col" className="py-2 pr-3">
                  By
                </th>
                <th scope="col" className="py-2 pr-3">
                  Size
                </th>
                <th scope="col" className="py-2 pr-3">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {versions.map((v) => (
                <tr key={v.n}>
                  <th scope="row" className="py-2 pr-3 font-medium">
                    {v.n}
                    {v.n === current && (
                      <span className="ml-2 rounded bg-green-100 px-1.5 text-xs text-green-900"> (current)</span>
                    )}
                    {v.restoredFrom !== null && (
                      <span className="block text-xs font-normal text-slate-700"> restored from {v.restoredFrom}</span>
                    )}
                  </th>
                  <td className="py-2 pr-3">{when(v.createdAt)}</td>
                  <td className="py-2 pr-3">{authorOf(v)}</td>
                  <td className="py-2 pr-3">{v.size} characters</td>
                  <td className="py-2 pr-3">
                    {canWrite && v.n !== current && (
                      <Button onPress={() => setRestoring(v.n)} aria-label={`Restore version ${v.n}`}>
                        Restore
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <MoreButton hasMore={list.hasMore} loading={list.loadingMore} onMore={list.more} what="versions" />
      {restoring !== undefined && (
        <fieldset className="mt-4 space-y-2 rounded-lg border border-slate-300 p-3 text-sm">
          <legend className="px-1">
            Restore version {restoring}? Its content becomes a new version {current ? current + 1 : ''}; no version is
            lost.
          </legend>
          <div className="flex gap-2">
            <Button tone="primary" onPress={() => restore.mutate(restoring)} isDisabled={restore.isPending}>
              Restore version {restoring}
            </Button>
            <Button onPress={() => setRestoring(undefined)}>Cancel</Button>
          </div>
        </fieldset>
      )}
      <ErrorNote error={restore.error} />
      {versions.length > 1 && <Compare orgId={orgId} pageId={pageId} versions={versions} />}
    </WikiShell>
  );
}

function useVersionText(orgId: string, pageId: string, n: number) {
  return useQuery({
    queryKey: [...keys.versions(orgId, pageId), n],
    queryFn: () => api().getPagesVersionsByN({ orgId, pageId, n }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Two versions side by side as a line diff: each changed line marked + or − (and said so to screen readers), not only coloured. */
function Compare({ orgId, pageId, versions }: { orgId: string; pageId: string; versions: Version[] }) {
  const [from, setFrom] = useState(String(versions[1]?.n ?? versions[0]?.n));
  const [to, setTo] = useState(String(versions[0]?.n));
  const a = useVersionText(orgId, pageId, Number(from));
  const b = useVersionText(orgId, pageId, Number(to));
  const options = versions.map((v) => ({ id: String(v.n), label: `Version ${v.n} · ${when(v.createdAt)}` }));
  const lines = useMemo(() => {
    if (!a.data || !b.data) return undefined;
    const out: { kind: 'added' | 'removed' | 'same'; text: string }[] = [];
    for (const part of diffLines(a.data.content, b.data.content)) {
      if (part.value === '') continue;
      const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
      const texts = part.value.replace(/\n$/, '').split('\n');
      for (const text of texts) out.push({ kind, text });
    }
    return out;
  }, [a.data, b.data]);
  const added = lines?.filter((l) => l.kind === 'added').length ?? 0;
  const removed = lines?.filter((l) => l.kind === 'removed').length ?? 0;
  return (
    <Section title="Compare versions">
      <div className="flex flex-wrap gap-3">
        <SelectField
          label="Compare version"
          value={from}
          onChange={setFrom}
          options={options}
          className="min-w-0 flex-1 basis-52"
        />
        <SelectField
          label="with version"
          value={to}
          onChange={setTo}
          options={options}
          className="min-w-0 flex-1 basis-52"
        />
      </div>
      <ErrorNote error={a.error ?? b.error} />
      {!lines && !a.error && !b.error && <Loading what="the versions" />}
      {lines && (
        <div className="mt-3">
          <p role="status" className="text-sm text-slate-800">
            {from === to
              ? 'The same version.'
              : `From version ${from} to version ${to}: ${added} ${added === 1 ? 'line' : 'lines'} added, ${removed} ${removed === 1 ? 'line' : 'lines'} removed.`}
          </p>
          <ol
            aria-label={`Changes from version ${from} to version ${to}`}
            className="mt-2 overflow-x-auto rounded-md border border-slate-300 font-mono text-xs"
          >
            {lines.map((l, i) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: lines of a diff have no identity but their place
                key={i}
                className={`flex whitespace-pre-wrap break-all px-2 py-0.5 ${
                  l.kind === 'added'
                    ? 'bg-green-50 text-green-950'
                    : l.kind === 'removed'
                      ? 'bg-red-50 text-red-950'
                      : ''
                }`}
              >
                <span aria-hidden="true" className="w-5 shrink-0 select-none font-bold">
                  {l.kind === 'added' ? '+' : l.kind === 'removed' ? '−' : ' '}
                </span>
                <span className="sr-only">
                  {l.kind === 'added' ? 'Added: ' : l.kind === 'removed' ? 'Removed: ' : ''}
                </span>
                {l.kind === 'added' ? (
                  <ins>{l.text || ' '}</ins>
                ) : l.kind === 'removed' ? (
                  <del>{l.text || ' '}</del>
                ) : (
                  <span>{l.text || ' '}</span>
                )}
              </li>
            ))}
          </ol>
        </div>
      )}
    </Section>
  );
}
