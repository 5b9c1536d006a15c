import type { Role } from '../../kernel/auth/scopes';

/** Spec part B, "Events": the kinds rules name and notices carry. */
export const EVENT_KINDS = [
  'issue.sla_breached',
  'deployment.ready',
  'deployment.failed',
  'pull_request.preview_ready',
  'pull_request.preview_failed',
  'account.new_sign_in',
  'domain.verified',
  'domain.failed',
  'issue.assigned',
  'issue.mentioned',
  'calendar.invite_unanswered',
  'calendar.meeting_soon',
  'mail.vip',
  'agent.job_done',
  'agent.job_failed',
  'ops.alarm',
  // Beyond the spec's list: a check run on a commit completed (webhooks; its pull requests' authors when it failed).
  'check.completed',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const CHANNELS = ['inapp', 'email', 'sms', 'voice'] as const;
export type Channel = (typeof CHANNELS)[number];

/** What a protocol attaches to (spec part B, "Notification protocol"). */
export const RESOURCE_TYPES = ['org', 'project', 'agent', 'mailbox', 'calendar', 'space'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export interface Step {
  afterMinutes: number;
  channels: Channel[];
}

/** A protocol rule (spec part B, "Events"). */
export interface Rule {
  events: EventKind[];
  match?: Record<string, string[]>;
  steps: Step[];
  beforeEvent?: boolean;
  roles?: Role[];
  userIds?: string[];
  overrideQuietHours?: boolean;
}

/**
 * An event as the notify worker gets it. `resources` are what it is about, most specific first
 * (a deployment: its project): the protocols attached to the first that has any are followed,
 * else the organization's. `people` are the persons it concerns (an assignee, a job's creator):
 * the recipients when a rule names no roles or user ids, and of a plain in-app notice when no
 * protocol applies. `startsAt` is when the thing happens (a meeting), for `beforeEvent` steps.
 */
export interface NotifyEvent {
  eventId: string;
  kind: EventKind;
  orgId: string;
  at: number;
  startsAt?: number;
  resources: { type: ResourceType; id: string }[];
  attributes: Record<string, string>;
  people: string[];
  title: string;
  body?: string;
  url?: string;
}
