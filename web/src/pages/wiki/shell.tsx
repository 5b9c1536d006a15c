import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, type ReactNode, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../lib/api';
import { useMe, useOrgId } from '../../lib/hooks';
import { Button, ErrorNote } from '../../ui/controls';

/** Query keys of the pages area (one place, so writes refresh what they change). */
export const keys = {
  all: (orgId: string) => ['wiki', orgId] as const,
  children: (orgId: string, parentId: string | null) => ['wiki', orgId, 'children', parentId ?? 'root'] as const,
  page: (orgId: string, pageId: string) => ['wiki', orgId, 'page', pageId] as const,
  favorites: (orgId: string) => ['wiki', orgId, 'favorites'] as const,
  versions: (orgId: string, pageId: string) => ['wiki', orgId, 'versions', pageId] as const,
};

/** Whether the person may change pages: a role above viewer (as the API decides), or a key with org:write. */
export function useCanWritePages(): boolean {
  const orgId = useOrgId();
  const mine = useMe().data?.me.orgs.find((o) => o.orgId === orgId);
  if (!mine) return false;
  return mine.role ? mine.role !== 'viewer' : mine.scopes.includes('org:write');
}

export const base = (orgId: string) => `/orgs/${orgId}/pages`;

export interface TreePage {
  pageId: string;
  title: string;
  icon: string | null;
  hasChildren: boolean;
}

export const label = (p: { title: string; icon: string | null }) => `${p.icon ? `${p.icon} ` : ''}${p.title}`;

/** One level of the tree, in order. */
export function useChildren(orgId: string, parentId: string | null, enabled = true) {
  return useQuery({
    queryKey: keys.children(orgId, parentId),
    queryFn: () => api().getPages({ orgId, ...(parentId ? { parentId } : {}), limit: 200 }),
    enabled,
  });
}

/**
 * The page tree (WAI-ARIA tree view): one tab stop; ↑/↓ move between the rows shown, → opens a
 * page's children (then goes to the first), ← closes them (then goes to the parent), Home/End,
 * Enter opens the page. Children load when their page is first opened. The current page is
 * `aria-current` and its ancestors open.
 */
export function PageTree({ open: initiallyOpen = [] }: { open?: string[] }) {
  const orgId = useOrgId();
  const current = useParams().pageId;
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(initiallyOpen));
  const [focused, setFocused] = useState<string | undefined>(current);
  const opening = initiallyOpen.join();
  // A page opened elsewhere (a link, a breadcrumb): its ancestors open, it takes the tab stop.
  useEffect(() => {
    if (opening) setExpanded((was) => new Set([...was, ...opening.split(',')]));
  }, [opening]);
  useEffect(() => {
    if (current) setFocused(current);
  }, [current]);
  const navigate = useNavigate();
  const top = useChildren(orgId, null);
  const toggle = (id: string, on?: boolean) =>
    setExpanded((was) => {
      const next = new Set(was);
      if (on ?? !was.has(id)) next.add(id);
      else next.delete(id);
      return next;
    });

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const tree = e.currentTarget;
    const items = [...tree.querySelectorAll<HTMLElement>('[role="treeitem"]')].filter(
      (el) => !el.parentElement?.closest('[role="group"][hidden]'),
    );
    const here = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
    if (!here) return;
    const i = items.indexOf(here);
    const id = here.dataset.pageId as string;
    const go = (el: HTMLElement | undefined | null) => {
      if (!el) return;
      setFocused(el.dataset.pageId);
      el.focus();
    };
    const isOpen = here.getAttribute('aria-expanded') === 'true';
    const parent = here.parentElement?.closest<HTMLElement>('[role="treeitem"]');
    switch (e.key) {
      case 'ArrowDown':
        go(items[i + 1]);
        break;
      case 'ArrowUp':
        go(items[i - 1]);
        break;
      case 'Home':
        go(items[0]);
        break;
      case 'End':
        go(items[items.length - 1]);
        break;
      case 'ArrowRight':
        if (here.getAttribute('aria-expanded') === 'false') toggle(id, true);
        else if (isOpen) go(here.querySelector<HTMLElement>('[role="group"] [role="treeitem"]'));
        break;
      case 'ArrowLeft':
        if (isOpen) toggle(id, false);
        else go(parent);
        break;
      case 'Enter':
        navigate(`${base(orgId)}/${id}`);
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  };

  if (top.error) return <ErrorNote error={top.error} />;
  if (!top.data) return <p className="text-sm text-slate-700">Loading pages…</p>;
  if (top.data.pages.length === 0) return <p className="text-sm text-slate-700">No pages yet.</p>;
  const tabStop = focused ?? top.data.pages[0]?.pageId;
  return (
    <div role="tree" aria-label="Pages" className="text-sm" onKeyDown={onKeyDown} tabIndex={-1}>
      {top.data.pages.map((p, i, all) => (
        <TreeNode
          key={p.pageId}
          page={p}
          level={1}
          pos={i + 1}
          size={all.length}
          ctx={{ orgId, current, tabStop, expanded, toggle, setFocused }}
        />
      ))}
    </div>
  );
}

interface TreeCtx {
  orgId: string;
  current: string | undefined;
  tabStop: string | undefined;
  expanded: Set<string>;
  toggle: (id: string, on?: boolean) => void;
  setFocused: (id: string) => void;
}

function TreeNode({
  page,
  level,
  pos,
  size,
  ctx,
}: {
  page: TreePage;
  level: number;
  pos: number;
  size: number;
  ctx: TreeCtx;
}) {
  const open = ctx.expanded.has(page.pageId);
  const navigate = useNavigate();
  const kids = useChildren(ctx.orgId, page.pageId, open && page.hasChildren);
  const isCurrent = ctx.current === page.pageId;
  return (
    <div
      role="treeitem"
      aria-level={level}
      aria-setsize={size}
      aria-posinset={pos}
      aria-selected={isCurrent}
      aria-current={isCurrent ? 'page' : undefined}
      aria-expanded={page.hasChildren ? open : undefined}
      aria-labelledby={`tree-label-${page.pageId}`}
      data-page-id={page.pageId}
      tabIndex={ctx.tabStop === page.pageId ? 0 : -1}
      onFocus={(e) => {
        if (e.target === e.currentTarget) ctx.setFocused(page.pageId);
      }}
      onClick={(e) => {
        e.stopPropagation();
        if ((e.target as HTMLElement).closest('[data-toggle]')) ctx.toggle(page.pageId);
        else navigate(`${base(ctx.orgId)}/${page.pageId}`);
      }}
      onKeyDown={() => {}}
      className="cursor-pointer rounded outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
    >
      <div
        className={`flex min-h-9 items-center gap-1 rounded px-1 ${isCurrent ? 'bg-blue-100 font-semibold text-blue-950' : 'hover:bg-slate-100'}`}
        style={{ paddingLeft: `${(level - 1) * 1}rem` }}
      >
        <span data-toggle aria-hidden="true" className="inline-flex w-6 shrink-0 justify-center text-slate-700">
          {page.hasChildren ? (open ? '▾' : '▸') : ''}
        </span>
        <span id={`tree-label-${page.pageId}`} className="min-w-0 flex-1 truncate">
          {label(page)}
        </span>
      </div>
      {page.hasChildren && (
        // biome-ignore lint/a11y/useSemanticElements: the children of a row of a WAI-ARIA tree view
        <div role="group" hidden={!open}>
          {open && !kids.data && <div className="py-1 pl-8 text-slate-700">Loading…</div>}
          {open &&
            kids.data?.pages.map((k, i, all) => (
              <TreeNode key={k.pageId} page={k} level={level + 1} pos={i + 1} size={all.length} ctx={ctx} />
            ))}
        </div>
      )}
    </div>
  );
}

/** The search box of the area: goes to /pages/search?q=… */
function SearchBox() {
  const orgId = useOrgId();
  const navigate = useNavigate();
  const [q, setQ] = useState('');
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is not in React's element types yet
    <form
      role="search"
      aria-label="Pages"
      onSubmit={(e) => {
        e.preventDefault();
        if (q.trim()) navigate(`${base(orgId)}/search?q=${encodeURIComponent(q.trim())}`);
      }}
      className="flex gap-2"
    >
      <label htmlFor="wiki-search" className="sr-only">
        Search pages
      </label>
      <input
        id="wiki-search"
        type="search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        placeholder="Search pages"
        className="min-h-10 w-full min-w-0 rounded-md border border-slate-400 bg-white px-2.5 text-sm outline-none focus:border-blue-700 focus:ring-2 focus:ring-blue-600"
      />
      <Button type="submit">Search</Button>
    </form>
  );
}

/** The area's frame: the tree, favorites and search beside the page (above it on a phone). */
export function WikiShell({ children, open }: { children: ReactNode; open?: string[] }) {
  const orgId = useOrgId();
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
      <nav aria-label="Pages of the organization" className="min-w-0 space-y-4 lg:border-r lg:border-slate-200 lg:pr-4">
        <SearchBox />
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <Link to={base(orgId)} className="text-blue-800 underline">
            All pages
          </Link>
          <Link to={`${base(orgId)}/favorites`} className="text-blue-800 underline">
            Favorites
          </Link>
        </div>
        <PageTree open={open} />
      </nav>
      <div className="min-w-0">{children}</div>
    </div>
  );
}
