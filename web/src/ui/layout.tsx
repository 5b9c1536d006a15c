import { Link, NavLink, Outlet, useNavigate, useNavigation, useParams, useRouteError } from 'react-router';
import { messageOf } from '../lib/api';
import { signOut } from '../lib/auth';
import { useMe } from '../lib/hooks';
import { queryClient } from '../lib/query';
import { NotificationBell } from '../pages/notifications/bell';
import { Button, PageTitle, SelectField } from './controls';

const sections = [
  ['projects', 'Projects'],
  ['deployments', 'Deployments'],
  ['repos', 'Repositories'],
  ['members', 'Members'],
  ['keys', 'API keys'],
  ['audit', 'Audit log'],
  ['tracker', 'Issues'],
  ['mail', 'Mail'],
  ['calendar', 'Calendar'],
  ['contacts', 'Contacts'],
  ['pages', 'Pages'],
  ['agents', 'Agents'],
] as const;

function OrgSwitcher() {
  const { orgId } = useParams();
  const navigate = useNavigate();
  const orgs = useMe().data?.me.orgs ?? [];
  if (!orgId || orgs.length === 0) return null;
  return (
    <SelectField
      label="Organization"
      className="w-full sm:w-60"
      value={orgId}
      onChange={(id) => {
        localStorage.setItem('platform.org', id);
        navigate(`/orgs/${id}/projects`);
      }}
      options={orgs.map((o) => ({ id: o.orgId, label: o.name }))}
    />
  );
}

export function Layout() {
  const { orgId } = useParams();
  const me = useMe().data?.me;
  const busy = useNavigation().state === 'loading';
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only rounded bg-white p-2 focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-slate-50">
        <div className="mx-auto flex max-w-6xl flex-wrap items-end gap-x-6 gap-y-3 px-4 py-3">
          <Link to="/" className="self-center text-lg font-bold text-slate-900 no-underline">
            Platform
          </Link>
          <OrgSwitcher />
          <div className="ml-auto flex items-center gap-3 self-center text-sm">
            <NotificationBell />
            {me?.email && <span className="hidden text-slate-700 sm:inline">{me.email}</span>}
            <Button
              onPress={() => {
                queryClient.clear();
                void signOut();
              }}
            >
              Sign out
            </Button>
          </div>
        </div>
        {orgId && (
          <nav aria-label="Sections" className="mx-auto max-w-6xl overflow-x-auto px-4">
            <ul className="flex gap-1 whitespace-nowrap">
              {sections.map(([path, label]) => (
                <li key={path}>
                  <NavLink
                    to={`/orgs/${orgId}/${path}`}
                    className={({ isActive }) =>
                      `inline-block no-underline border-b-2 px-3 py-2 text-sm font-medium ${isActive ? 'border-blue-700 text-slate-900' : 'border-transparent text-slate-700'}`
                    }
                  >
                    {label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </header>
      {busy && (
        <p role="status" className="sr-only">
          Loading the page…
        </p>
      )}
      <main id="main" className="mx-auto max-w-6xl px-4 py-6">
        <Outlet />
      </main>
    </div>
  );
}

export function RouteError() {
  const error = useRouteError();
  return (
    <main id="main" className="mx-auto max-w-3xl p-6">
      <PageTitle title="Something went wrong">Something went wrong</PageTitle>
      <p role="alert" className="mt-3 text-sm">
        {messageOf(error)}
      </p>
      <p className="mt-3 text-sm">
        <Link to="/">Back to the start</Link>
      </p>
    </main>
  );
}
