import type { Rule } from './kinds';

export interface Template {
  id: string;
  name: string;
  description: string;
  rules: Rule[];
}

/** The six templates of spec part B (`GET /notify/protocols/templates`), copied by `{ template }`. */
export const TEMPLATES: Template[] = [
  {
    id: 'production-on-call',
    name: 'Production on-call',
    description:
      'Failed production deployments and alarms page the owners and admins: email at once, a text at 5 minutes, ' +
      'a call at 15, until someone acknowledges, quiet hours or not.',
    rules: [
      {
        events: ['deployment.failed', 'ops.alarm'],
        match: { target: ['production'] },
        steps: [
          { afterMinutes: 0, channels: ['inapp', 'email'] },
          { afterMinutes: 5, channels: ['sms'] },
          { afterMinutes: 15, channels: ['voice'] },
        ],
        roles: ['owner', 'admin'],
        overrideQuietHours: true,
      },
    ],
  },
  {
    id: 'meeting-guard',
    name: 'Meeting guard',
    description: 'A notice 15 minutes before a meeting starts, an email at 5 minutes before.',
    rules: [
      {
        events: ['calendar.meeting_soon'],
        beforeEvent: true,
        steps: [
          { afterMinutes: 15, channels: ['inapp'] },
          { afterMinutes: 5, channels: ['email'] },
        ],
      },
    ],
  },
  {
    id: 'invitation-chaser',
    name: 'Invitation chaser',
    description: 'Unanswered invitations: a notice at once, an email a day later.',
    rules: [
      {
        events: ['calendar.invite_unanswered'],
        steps: [
          { afterMinutes: 0, channels: ['inapp'] },
          { afterMinutes: 1440, channels: ['email'] },
        ],
      },
    ],
  },
  {
    id: 'vip-mail',
    name: 'VIP mail',
    description: 'Mail from VIP senders: a notice at once, a text after 30 minutes unread.',
    rules: [
      {
        events: ['mail.vip'],
        steps: [
          { afterMinutes: 0, channels: ['inapp'] },
          { afterMinutes: 30, channels: ['sms'] },
        ],
      },
    ],
  },
  {
    id: 'service-desk-sla',
    name: 'Service desk SLA',
    description:
      'A breached SLA: the assignee, owners and admins get a notice and an email, a text at 30 minutes, a call at 60.',
    // Two rules: one naming no one goes to the event's own people (the assignee), one to the roles.
    rules: [
      {
        events: ['issue.sla_breached'],
        steps: [
          { afterMinutes: 0, channels: ['inapp', 'email'] },
          { afterMinutes: 30, channels: ['sms'] },
          { afterMinutes: 60, channels: ['voice'] },
        ],
      },
      {
        events: ['issue.sla_breached'],
        steps: [
          { afterMinutes: 0, channels: ['inapp', 'email'] },
          { afterMinutes: 30, channels: ['sms'] },
          { afterMinutes: 60, channels: ['voice'] },
        ],
        roles: ['owner', 'admin'],
      },
    ],
  },
  {
    id: 'agent-jobs',
    name: 'Agent jobs',
    description: "Agent jobs that end: a notice to the job's creator; a failed one by email too.",
    rules: [
      { events: ['agent.job_done'], steps: [{ afterMinutes: 0, channels: ['inapp'] }] },
      { events: ['agent.job_failed'], steps: [{ afterMinutes: 0, channels: ['inapp', 'email'] }] },
    ],
  },
];
