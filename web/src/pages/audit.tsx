import { useState } from 'react';
import { api } from '../lib/api';
import { useOrgId } from '../lib/hooks';
import { useCursorList } from '../lib/query';
import { Button, ErrorNote, Loading, MoreButton, PageTitle, TextInput, when } from '../ui/controls';

const EMPTY = { actor: '', action: '', target: '' };

export default function Audit() {
  const orgId = useOrgId();
  const [typed, setTyped] = useState(EMPTY);
  const [filter, setFilter] = useState(EMPTY);
  const list = useCursorList(
    ['audit', orgId, filter],
    (cursor) =>
      api().getAudit({
        orgId,
        cursor,
        limit: 50,
        ...Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== '')),
      }),
    (page) => page.entries,
  );
  return (
    <div>
      <PageTitle title="Audit log">Audit log</PageTitle>
      <form
        className="mt-4 flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter(typed);
        }}
      >
        <TextInput label="Actor" value={typed.actor} onChange={(actor) => setTyped({ ...typed, actor })} />
        <TextInput label="Action" value={typed.action} onChange={(action) => setTyped({ ...typed, action })} />
        <TextInput label="Target" value={typed.target} onChange={(target) => setTyped({ ...typed, target })} />
        <Button type="submit">Filter</Button>
      </form>
      <div className="mt-4">
        {list.isPending && <Loading what="the audit log" />}
        <ErrorNote error={list.error} />
        {!list.isPending && list.items.length === 0 && <p className="text-sm">Nothing recorded.</p>}
        <ol aria-label="Audit entries" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {list.items.map((e) => (
            <li key={`${e.requestId}-${e.at}`} className="p-3 text-sm">
              <p>
                <span className="font-medium">{e.action}</span> by {e.actor.email ?? `${e.actor.kind} ${e.actor.id}`} ·{' '}
                {e.status} · {when(e.at)}
              </p>
              <p className="break-words text-slate-700">
                <code>{e.route}</code>
                {Object.keys(e.target).length > 0 &&
                  ` · ${Object.entries(e.target)
                    .map(([k, v]) => `${k} ${v}`)
                    .join(', ')}`}
                {e.fields.length > 0 && ` · fields ${e.fields.join(', ')}`}
              </p>
            </li>
          ))}
        </ol>
        <MoreButton hasMore={list.hasMore} loading={list.loadingMore} onMore={list.more} what="entries" />
      </div>
    </div>
  );
}
