import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router';
import { api } from '../lib/api';
import { useOrgId, useParam } from '../lib/hooks';

export function useProject() {
  const orgId = useOrgId();
  const projectId = useParam('projectId');
  const q = useQuery({
    queryKey: ['project', orgId, projectId],
    queryFn: () => api().getProjectsByProjectId({ orgId, projectId }),
  });
  return { orgId, projectId, ...q };
}

export function ProjectNav({ orgId, projectId }: { orgId: string; projectId: string }) {
  const base = `/orgs/${orgId}/projects/${projectId}`;
  const tabs = [
    ['', 'Overview'],
    ['/settings', 'Settings'],
    ['/env', 'Environment variables'],
    ['/domains', 'Domains'],
  ];
  return (
    <nav aria-label="Project" className="mt-4 overflow-x-auto border-b border-slate-200">
      <ul className="flex gap-1 whitespace-nowrap">
        {tabs.map(([path, label]) => (
          <li key={path}>
            <NavLink
              end
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
  );
}
