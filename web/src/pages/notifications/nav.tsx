import { NavLink } from 'react-router';

/** The notifications area's tabs: the person's notices and the organization's protocols. */
export function NotifyNav({ orgId }: { orgId: string }) {
  const tabs = [
    ['notifications', 'Inbox'],
    ['notifications/protocols', 'Protocols'],
  ] as const;
  return (
    <nav aria-label="Notifications" className="mt-3 overflow-x-auto border-b border-slate-200">
      <ul className="flex gap-1 whitespace-nowrap">
        {tabs.map(([path, label]) => (
          <li key={path}>
            <NavLink
              end
              to={`/orgs/${orgId}/${path}`}
              className={({ isActive }) =>
                `inline-block border-b-2 px-3 py-2 text-sm font-medium no-underline ${isActive ? 'border-blue-700 text-slate-900' : 'border-transparent text-slate-700'}`
              }
            >
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
