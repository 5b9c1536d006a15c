import type { Organization } from '../identity/schema';
import type { Role, Scope } from './scopes';

/** Who is calling: one of the four caller kinds of spec part A, "Authentication" §2. */
export type Caller =
  | { kind: 'user'; userId: string; email?: string; name?: string }
  | { kind: 'api_key' | 'agent_key'; keyId: string; orgId: string; scopes: Scope[] }
  | { kind: 'device'; keyId: string; orgId: string; deviceId: string };

/** The caller's standing in the organization named in the path. */
export interface OrgAccess {
  org: Organization;
  /** People only; keys have scopes but no role. */
  role?: Role;
  scopes: ReadonlySet<Scope>;
}

/** The caller's id as records name who did something (`createdBy`, `closedBy`): a person's or a key's. */
export const callerId = (caller: Caller) => (caller.kind === 'user' ? caller.userId : caller.keyId);
