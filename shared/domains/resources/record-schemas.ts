import * as z from 'zod/mini';
import { RESOURCE_TYPES } from './schema';

/**
 * The records the resource routes (resources, databases, storage, repos) answer, each declared once and
 * registered by its id: lib/openapi.ts names them in `components.schemas`, the typed client declares a type
 * of each. Only documentation (functions/<group>/responses.ts) imports these values, so they stay out of
 * the Lambda bundles; code imports their types.
 */

/** Spec part A, "Resource record", as toResource answers it (no `version`, `keys` or `tags`). */
export const Resource = z
  .object({
    resourceId: z.string(),
    type: z.enum(RESOURCE_TYPES),
    name: z.string(),
    status: z.optional(z.enum(['error', 'active', 'creating', 'deleting'])),
    /** Why provisioning failed, when `status` is `error`. */
    error: z.optional(z.string()),
    description: z.optional(z.string()),
    createdAt: z.optional(z.number()),
    updatedAt: z.optional(z.number()),
    region: z.string(),
    orgId: z.string(),
    createdBy: z.string(),
    projectId: z.optional(z.string()),
    location: z.string(),
    arn: z.optional(z.string()),
    physicalName: z.string(),
  })
  .register(z.globalRegistry, { id: 'Resource' });
export type Resource = z.output<typeof Resource>;
