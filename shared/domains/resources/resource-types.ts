/** Spec part A, "Resource record": the types of resource (apart from ./schema.ts, so that ./record-schemas.ts takes it without a cycle). */
export const RESOURCE_TYPES = ['repository', 'database', 'bucket'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];
