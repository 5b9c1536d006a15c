import * as z from 'zod/mini';
import { ROLES } from '../../kernel/auth/scopes';
import { E164 } from '../../ports/phone/port';
import { CHANNELS, EVENT_KINDS, RESOURCE_TYPES } from './kinds';

/** Spec part B, "Events": a protocol rule and its limits. */
const Step = z.object({
  afterMinutes: z.int().check(z.minimum(0), z.maximum(10_080)),
  channels: z.array(z.enum(CHANNELS)).check(
    z.minLength(1),
    z.refine((c) => new Set(c).size === c.length, 'Each channel at most once.'),
  ),
});

export const RuleSchema = z.object({
  events: z.array(z.enum(EVENT_KINDS)).check(z.minLength(1), z.maxLength(EVENT_KINDS.length)),
  match: z.optional(
    z
      .record(
        z.string().check(z.minLength(1), z.maxLength(64)),
        z.array(z.string().check(z.maxLength(200))).check(z.maxLength(20)),
      )
      .check(z.refine((m) => Object.keys(m).length <= 20, 'match has up to 20 attributes.')),
  ),
  steps: z.array(Step).check(z.minLength(1), z.maxLength(6)),
  beforeEvent: z.optional(z.boolean()),
  roles: z.optional(z.array(z.enum(ROLES)).check(z.maxLength(ROLES.length))),
  userIds: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(50))),
  overrideQuietHours: z.optional(z.boolean()),
});

export const ProtocolBody = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
  description: z.optional(z.string().check(z.maxLength(300))),
  enabled: z._default(z.boolean(), true),
  rules: z.array(RuleSchema).check(z.minLength(1), z.maxLength(20)),
});

export const ResourceTypeSchema = z.enum(RESOURCE_TYPES);

/** A quiet-hours window in a time zone. */
export const QuietHours = z.object({
  start: z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'start is HH:MM.')),
  end: z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'end is HH:MM.')),
  timeZone: z.string().check(
    z.maxLength(64),
    z.refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'Unknown time zone.'),
  ),
});

/** A person's notification settings: a phone number for texts and calls, and quiet hours. */
export const SettingsBody = z.object({
  phone: z.nullable(z.string().check(z.regex(E164, 'phone is an E.164 number, e.g. +4915112345678.'))),
  quietHours: z.nullable(QuietHours),
});
