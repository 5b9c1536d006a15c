/** Spec part A, "Environment variable". */
export const ENV_TARGETS = ['production', 'preview', 'development'] as const;
export type EnvTarget = (typeof ENV_TARGETS)[number];

export interface EnvVar {
  key: string;
  orgId: string;
  projectId: string;
  /** null for sensitive variables, always. */
  value: string | null;
  targets: EnvTarget[];
  sensitive: boolean;
  updatedBy: string;
  createdAt?: number;
  updatedAt?: number;
}

/**
 * The stored record: pk `ORG#<orgId>`, sk `ENV#<projectId>#<key>`. `secret` is the value's
 * envelope from the secrets port, bound to `{ purpose: 'env', orgId, projectId }`.
 */
export interface EnvRecord extends Omit<EnvVar, 'value'> {
  pk: string;
  sk: string;
  secret: string;
  version: number;
}

export const MAX_BULK_VARS = 200;
export const MAX_KEY_LENGTH = 256;
export const MAX_VALUE_LENGTH = 65_536;

/** Letters, digits and underscores, not starting with a digit. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * THE names reserved by the platform, in one place. Prefixes end with `*`. Matched without
 * regard to case, so `aws_region` cannot shadow `AWS_REGION` on a case-insensitive tool.
 * - the Lambda runtime's own variables (`AWS_*`, `LAMBDA_*`, `_HANDLER`, `_X_AMZN_TRACE_ID`);
 * - `PORT`, which the platform sets for the server it starts;
 * - the platform's own variables (`PLATFORM_*`: deployment id, project, target, URL).
 */
export const RESERVED_NAMES = ['AWS_*', 'LAMBDA_*', '_HANDLER', '_X_AMZN_TRACE_ID', 'PORT', 'PLATFORM_*'] as const;

export function isReservedName(name: string): boolean {
  const upper = name.toUpperCase();
  return RESERVED_NAMES.some((r) => (r.endsWith('*') ? upper.startsWith(r.slice(0, -1)) : upper === r));
}

export const isValidName = (name: string) => ENV_NAME.test(name);
