import { type Role, SCOPES, type Scope } from './scopes';

/**
 * The one roles → scopes table. Owners and admins hold every scope; developers all but
 * `org:write` and `members:write`; viewers the `:read` scopes except `env:read` (variable values
 * are for developers and up).
 */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  owner: SCOPES,
  admin: SCOPES,
  developer: SCOPES.filter((s) => s !== 'org:write' && s !== 'members:write'),
  viewer: SCOPES.filter((s) => s.endsWith(':read') && s !== 'env:read'),
};

/** Roles that administer an organization (routes "restricted to owners and admins"). */
export const isAdmin = (role: Role | undefined): boolean => role === 'owner' || role === 'admin';
