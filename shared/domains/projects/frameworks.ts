/** Spec part A, "Project": the frameworks (apart from ./schema.ts, so that ./record-schemas.ts takes it without a cycle). */
export const FRAMEWORKS = ['nextjs', 'static', 'node'] as const;
export type Framework = (typeof FRAMEWORKS)[number];
