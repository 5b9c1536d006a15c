import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../lib/api';
import { useOrgId, useParam } from '../../lib/hooks';
import { Button, Done, ErrorNote, Loading, PageTitle, Section, when } from '../../ui/controls';
import { Markdown } from './markdown';
import { NewPageForm } from './new-page';
import { base, keys, label, useCanWritePages, useChildren, WikiShell } from './shell';

export function usePage(orgId: string, pageId: string) {
  return useQuery({ queryKey: keys.page(orgId, pageId), queryFn: () => api().getPagesByPageId({ orgId, pageId }) });
}

const linkButton =
  'inline-flex min-h-10 items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 no-underline hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600';

/** Breadcrumbs: the page's ancestors, top level first. */
export function Crumbs({
  orgId,
  trail,
}: {
  orgId: string;
  trail: { pageId: string; title: string; icon: string | null }[];
}) {
  return (
    <nav aria-label="Breadcrumbs" className="mb-2 text-sm">
      <ol className="flex flex-wrap gap-1 text-slate-700">
        <li>
          <Link to={base(orgId)} className="text-blue-800 underline">
            Pages
          </Link>
        </li>
        {trail.map((c) => (
          <li key={c.pageId} className="before:mr-1 before:content-['/']">
            <Link to={`${base(orgId)}/${c.pageId}`} className="text-blue-800 underline">
              {label(c)}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** A page: its rendered content, star, edit, history, subpages, move and delete. */
export default function WikiPage() {
  const orgId = useOrgId();
  const pageId = useParam('pageId');
  const q = usePage(orgId, pageId);
  const canWrite = useCanWritePages();
  const data = q.data;
  return (
    <WikiShell open={data ? data.breadcrumbs.map((b) => b.pageId) : undefined}>
      {q.isPending && <Loading what="the page" />}
      <ErrorNote error={q.error} />
      {data && (
        <article aria-labelledby="page-heading">
          <Crumbs orgId={orgId} trail={data.breadcrumbs} />
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div id="page-heading">
              <PageTitle title={data.page.title}>{label(data.page)}</PageTitle>
            </div>
            <StarButton orgId={orgId} pageId={pageId} on={data.favorite} title={data.page.title} />
          </div>
          <p className="mt-1 text-sm text-slate-700">
            Version {data.page.contentVersion} · updated {when(data.page.updatedAt)}
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            {canWrite && (
              <Link to={`${base(orgId)}/${pageId}/edit`} className={linkButton}>
                Edit
              </Link>
            )}
            <Link to={`${base(orgId)}/${pageId}/history`} className={linkButton}>
              History
            </Link>
          </div>
          <div className="mt-6 rounded-lg border border-slate-200 p-4">
            <Markdown text={data.content} />
          </div>
          {data.children.length > 0 && (
            <Section title="Subpages">
              <ul className="list-disc pl-6 text-sm">
                {data.children.map((c) => (
                  <li key={c.pageId}>
                    <Link to={`${base(orgId)}/${c.pageId}`} className="text-blue-800 underline">
                      {label(c)}
                    </Link>
                  </li>
                ))}
              </ul>
            </Section>
          )}
          {canWrite && (
            <>
              <Section title="New subpage">
                <NewPageForm orgId={orgId} parentId={pageId} />
              </Section>
              <MoveSection orgId={orgId} page={data.page} trail={data.breadcrumbs} />
              <DeleteSection orgId={orgId} pageId={pageId} parentId={data.page.parentId} title={data.page.title} />
            </>
          )}
        </article>
      )}
    </WikiShell>
  );
}

function StarButton({ orgId, pageId, on, title }: { orgId: string; pageId: string; on: boolean; title: string }) {
  const client = useQueryClient();
  const star = useMutation({
    mutationFn: () =>
      on ? api().deleteFavoritesByPageId({ orgId, pageId }) : api().putFavoritesByPageId({ orgId, pageId }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: keys.page(orgId, pageId) }),
        client.invalidateQueries({ queryKey: keys.favorites(orgId) }),
      ]),
  });
  return (
    <div>
      <Button
        aria-pressed={on}
        aria-label={`Favorite: ${title}`}
        onPress={() => star.mutate()}
        isDisabled={star.isPending}
      >
        <span aria-hidden="true">{on ? '★' : '☆'}</span> {on ? 'Starred' : 'Star'}
      </Button>
      <ErrorNote error={star.error} />
    </div>
  );
}

type Move = { parentId?: string | null; before?: string; after?: string };

/** Moves by keyboard as well as any pointer: up and down among siblings, in under the one above, out beside the parent. */
function MoveSection(props: {
  orgId: string;
  page: { pageId: string; parentId: string | null; version: number; title: string };
  trail: { pageId: string }[];
}) {
  const { orgId, page } = props;
  const client = useQueryClient();
  const siblings = useChildren(orgId, page.parentId);
  const [moved, setMoved] = useState('');
  const list = siblings.data?.pages ?? [];
  const i = list.findIndex((s) => s.pageId === page.pageId);
  const prev = i > 0 ? list[i - 1] : undefined;
  const next = i >= 0 ? list[i + 1] : undefined;
  const grandparent = props.trail.length >= 2 ? (props.trail[props.trail.length - 2]?.pageId ?? null) : null;
  const move = useMutation({
    mutationFn: (m: { to: Move; said: string }) =>
      api().patchPagesByPageId({ orgId, pageId: page.pageId, body: { ...m.to, ifVersion: page.version } }),
    onSuccess: async (_res, m) => {
      setMoved(m.said);
      await client.invalidateQueries({ queryKey: keys.all(orgId) });
    },
  });
  const act = (to: Move, said: string) => {
    setMoved('');
    move.mutate({ to, said });
  };
  return (
    <Section title="Move">
      <div className="flex flex-wrap gap-2">
        <Button
          isDisabled={!prev || move.isPending}
          onPress={() => prev && act({ before: prev.pageId }, `Moved ${page.title} up.`)}
        >
          Move up
        </Button>
        <Button
          isDisabled={!next || move.isPending}
          onPress={() => next && act({ after: next.pageId }, `Moved ${page.title} down.`)}
        >
          Move down
        </Button>
        <Button
          isDisabled={!prev || move.isPending}
          onPress={() => prev && act({ parentId: prev.pageId }, `Moved ${page.title} under ${prev.title}.`)}
        >
          Indent (under the page above)
        </Button>
        <Button
          isDisabled={!page.parentId || move.isPending}
          onPress={() =>
            page.parentId && act({ parentId: grandparent, after: page.parentId }, `Moved ${page.title} out one level.`)
          }
        >
          Outdent (beside its parent)
        </Button>
      </div>
      <ErrorNote error={move.error} />
      {moved && <Done>{moved}</Done>}
    </Section>
  );
}

function DeleteSection(props: { orgId: string; pageId: string; parentId: string | null; title: string }) {
  const [asking, setAsking] = useState(false);
  const client = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => api().deletePagesByPageId({ orgId: props.orgId, pageId: props.pageId }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: keys.all(props.orgId) });
      navigate(props.parentId ? `${base(props.orgId)}/${props.parentId}` : base(props.orgId));
    },
  });
  return (
    <Section title="Delete">
      {!asking ? (
        <Button tone="danger" onPress={() => setAsking(true)}>
          Delete page…
        </Button>
      ) : (
        <fieldset className="space-y-2 text-sm">
          <legend>Delete “{props.title}” and every page under it? Their history goes too.</legend>
          <div className="flex gap-2">
            <Button tone="danger" onPress={() => remove.mutate()} isDisabled={remove.isPending}>
              Delete
            </Button>
            <Button onPress={() => setAsking(false)}>Cancel</Button>
          </div>
        </fieldset>
      )}
      <ErrorNote error={remove.error} />
    </Section>
  );
}
