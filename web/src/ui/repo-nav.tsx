import { useQuery } from '@tanstack/react-query';
import { Link, NavLink } from 'react-router';
import { api } from '../lib/api';
import { useOrgId, useParam } from '../lib/hooks';

export function useRepo() {
  const orgId = useOrgId();
  const name = useParam('name');
  const repo = useQuery({ queryKey: ['repo', orgId, name], queryFn: () => api().getReposByName({ orgId, name }) });
  return { orgId, name, repo };
}

export function RepoHeader({ orgId, name }: { orgId: string; name: string }) {
  const base = `/orgs/${orgId}/repos/${name}`;
  const tabs = [
    ['', 'Code'],
    ['/branches', 'Branches'],
    ['/commits', 'Commits'],
    ['/pulls', 'Pull requests'],
    ['/settings', 'Settings'],
  ];
  return (
    <>
      <p className="text-sm">
        <Link to={`/orgs/${orgId}/repos`}>Repositories</Link> /
      </p>
      <nav aria-label="Repository" className="mt-3 overflow-x-auto border-b border-slate-200">
        <ul className="flex gap-1 whitespace-nowrap">
          {tabs.map(([path, label]) => (
            <li key={path}>
              <NavLink
                end={path === ''}
                to={`${base}${path}`}
                className={({ isActive }) =>
                  `inline-block no-underline border-b-2 px-3 py-2 text-sm ${isActive ? 'border-blue-700 font-medium text-slate-900' : 'border-transparent text-slate-700'}`
                }
              >
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}
