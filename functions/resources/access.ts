import { RESOURCE_TYPES, type ResourceType } from '../../shared/domains/resources/schema';
import type { Scope } from '../../shared/kernel/auth/scopes';
import { forbidden, invalid } from '../../shared/kernel/ground/errors';

/**
 * The resource routes' precise scope rule (spec part A, "Resources"): repositories need
 * `git:read`/`git:write`, databases and buckets `resources:read`/`resources:write`. The route
 * table lets either scope through (`scope` + `allowed`); the route then applies this rule once
 * it knows the type.
 */
export function requireScopeFor(scopes: ReadonlySet<Scope>, type: ResourceType | undefined, mode: 'read' | 'write') {
  const needed: Scope = type === 'repository' ? `git:${mode}` : `resources:${mode}`;
  if (!scopes.has(needed)) throw forbidden(`Missing scope ${needed}`);
}

/** The `:type` of a path: 400 `Unknown type` for anything but the three. */
export function typeOf(value: string): ResourceType {
  if (!(RESOURCE_TYPES as readonly string[]).includes(value)) throw invalid('Unknown type');
  return value as ResourceType;
}
