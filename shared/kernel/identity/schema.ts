import type { Role, Scope } from '../auth/scopes';

/** Spec part A, "Organization" (+ `version` for guarded writes). */
export interface Organization {
  orgId: string;
  slug: string;
  name: string;
  kind: 'platform' | 'customer';
  createdAt: number;
  updatedAt?: number;
  version: number;
  /** `deleting` while a deletion runs: nothing new may be created in it. */
  status?: 'active' | 'deleting';
  /** The platform plan (shared/kernel/plans/plans.ts); none: the environment's rate limits. */
  planId?: string;
  /** Suspended by a platform operator: reads work, writes are 403 (a field of its own beside `status`). */
  suspended?: boolean;
}

export interface Member {
  userId: string;
  role: Role;
  email?: string;
  name?: string;
  joinedAt?: number;
}

export interface Team {
  teamId: string;
  slug: string;
  name: string;
  description?: string;
  members: number;
}

export interface Invite {
  inviteId: string;
  email: string;
  role: Role;
  expiresAt: number;
  createdAt?: number;
}

export interface User {
  userId: string;
  email: string;
  name?: string;
  createdAt: number;
}

/** A stored API key, platform agent key or agent device token (the secret itself is never stored). */
export interface KeyRecord {
  keyId: string;
  kind: 'api' | 'agent' | 'device';
  orgId: string;
  scopes: Scope[];
  name?: string;
  deviceId?: string;
  createdAt: number;
  expiresAt?: number;
  revoked?: boolean;
}

/** The organization as the API answers it. */
export function toOrganization(org: Organization) {
  return {
    orgId: org.orgId,
    slug: org.slug,
    name: org.name,
    kind: org.kind,
    createdAt: org.createdAt,
    updatedAt: org.updatedAt,
    version: org.version,
  };
}
