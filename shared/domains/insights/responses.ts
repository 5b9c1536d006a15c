import * as z from 'zod/mini';

/** The answers of the audit and analytics routes (the organization's and the platform's): documentation. */
export const AuditEntrySchema = z.object({
  orgId: z.nullable(z.string()),
  at: z.string(),
  actor: z.object({
    kind: z.enum(['user', 'api_key', 'agent_key', 'device']),
    id: z.string(),
    email: z.nullable(z.string()),
  }),
  action: z.string(),
  route: z.string(),
  target: z.record(z.string(), z.string()),
  status: z.number(),
  requestId: z.string(),
  ip: z.nullable(z.string()),
  userAgent: z.nullable(z.string()),
  fields: z.array(z.string()),
});

export const AuditList = z.object({ entries: z.array(AuditEntrySchema), cursor: z.nullable(z.string()) });

const Counts = {
  requests: z.number(),
  clientErrors: z.number(),
  serverErrors: z.number(),
  durationMs: z.number(),
  avgDurationMs: z.number(),
  deploymentsCreated: z.number(),
  issuesCreated: z.number(),
  mailSent: z.number(),
  mailReceived: z.number(),
  edgeRequests: z.number(),
  buildsSucceeded: z.number(),
  buildsFailed: z.number(),
  buildSeconds: z.number(),
};

export const Analytics = z.object({
  from: z.string(),
  to: z.string(),
  interval: z.enum(['hour', 'day']),
  projectId: z.nullable(z.string()),
  series: z.array(z.object({ at: z.string(), ...Counts })),
  totals: z.object(Counts),
  topRoutes: z.array(
    z.object({ route: z.string(), requests: z.number(), clientErrors: z.number(), serverErrors: z.number() }),
  ),
});

export const PlatformStats = z.object({
  totals: z.record(z.string(), z.number()),
  updatedAt: z.nullable(z.number()),
});
