/** Spec part A, "Authentication" §4: every scope name in use. */
export const SCOPES = [
  'git:read',
  'git:write',
  'resources:read',
  'resources:write',
  'projects:read',
  'projects:write',
  'deployments:read',
  'deployments:write',
  'domains:read',
  'logs:read',
  'env:read',
  'env:write',
  'members:read',
  'members:write',
  'org:read',
  'org:write',
  'agents:read',
  'agents:write',
  'agents:run',
  'connectors:read',
  'connectors:write',
  'issues:read',
  'issues:write',
  'calendar:read',
  'calendar:write',
  'contacts:read',
  'contacts:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}
