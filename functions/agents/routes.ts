import * as z from 'zod/mini';
import {
  answerLogin,
  type Capability,
  DEVICE_MESSAGES,
  type DeviceRecord,
  decideRequest,
  fileRequest,
  isDeviceHost,
  listDevices,
  listRequests,
  MAX_HOSTS,
  requireDevice,
  revokeDevice,
  updateDevice,
} from '../../shared/domains/agents/devices';
import {
  cancelJob,
  checkInput,
  createJob,
  DEFAULT_TTL_SECONDS,
  endDeviceJobs,
  JOB_MESSAGES,
  type JobRecord,
  missingFor,
  recentJobs,
  requireJob,
  resultsUrl,
  waitingOf,
} from '../../shared/domains/agents/jobs';
import { callerId } from '../../shared/kernel/auth/caller';
import { conflict, forbidden, invalid, notFound } from '../../shared/kernel/ground/errors';
import { created, noContent, ok, route } from '../../shared/kernel/http/route';
import { oneLine } from '../../shared/kernel/http/text-checks';
import { checkPublicUrl, UnresolvableHostError, UnsafeUrlError } from '../../shared/kernel/net/guarded-fetch';
import { publicFields } from '../../shared/kernel/store/table';

const OrgPath = z.object({ orgId: z.string() });
const DevicePath = z.object({ orgId: z.string(), deviceId: z.string() });
const JobPath = z.object({ orgId: z.string(), jobId: z.string() });
const CALLBACK = 'callbackUrl must be a public https URL.';
const BAD_HOST = DEVICE_MESSAGES.badHost('<host>');
const CALLBACK_UNRESOLVED = "callbackUrl's host <host> does not resolve.";

/** A hostname of at least two labels, optionally `*.` for its subdomains. */
const Host = z.string().check(
  z.maxLength(253),
  z.regex(/^(\*\.)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, {
    message: 'Use hostnames of at least two labels (lowercase), optionally starting with *.',
  }),
);

/** A device as the API shows it (its token's id and write counter left out). */
const shown = (d: DeviceRecord) => {
  const { keyId: _key, rev: _rev, ...device } = publicFields(d as DeviceRecord & Record<string, unknown>);
  return device;
};

/** A job as the API shows it (its results key left out: results come by `resultsUrl`). */
const shownJob = (j: JobRecord) => {
  const { resultKey: _r, ...job } = publicFields(j as JobRecord & Record<string, unknown>);
  return job;
};

export const routes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/agents',
    scope: 'agents:read',
    summary: "The organization's devices, their pending network requests and the latest jobs.",
    params: OrgPath,
    run: async ({ org }) => {
      const [devices, requests, jobs] = await Promise.all([
        listDevices(org.orgId),
        listRequests(org.orgId),
        recentJobs(org.orgId, 50),
      ]);
      return ok({
        devices: devices.map(shown),
        requests: requests
          .filter((r) => r.status === 'pending')
          .map((r) => publicFields(r as typeof r & Record<string, unknown>)),
        jobs: jobs.map((j) => ({ ...shownJob(j), waiting: waitingOf(j, devices) })),
      });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/agents/jobs',
    scope: 'agents:run',
    summary:
      'Queues a job for a device of the organization: `http.batch` `{ requests: [{ method, url, headers?, body?, ' +
      'timeoutMs? }] }` (1-100), `exec` `{ command: [argv…], cwd?, env?, timeoutMs? }` (also needs agents:write), ' +
      '`browser.batch` `{ pages: [{ url, waitFor?, screenshot?, text? }] }` (1-20). URL hosts join `hosts`.',
    params: OrgPath,
    body: z.object({
      type: z.enum(['http.batch', 'exec', 'browser.batch']),
      label: z.optional(z.string().check(z.maxLength(120), oneLine)),
      input: z.unknown(),
      hosts: z._default(z.array(Host).check(z.maxLength(50)), []),
      callbackUrl: z.optional(z.string().check(z.maxLength(2048))),
      ttlSeconds: z.optional(z.number()),
    }),
    errors: {
      400: ['Invalid browser.batch input. ...', CALLBACK, CALLBACK_UNRESOLVED, JOB_MESSAGES.ttl],
      403: ['Missing scope agents:write'],
      413: [JOB_MESSAGES.tooLarge],
    },
    run: async ({ org, body, caller, scopes }) => {
      if (body.type === 'exec' && !scopes.has('agents:write')) throw forbidden('Missing scope agents:write');
      const ttl = body.ttlSeconds ?? DEFAULT_TTL_SECONDS;
      if (!Number.isInteger(ttl) || ttl < 60 || ttl > 604_800) throw invalid(JOB_MESSAGES.ttl);
      if (body.callbackUrl !== undefined) {
        try {
          await checkPublicUrl(body.callbackUrl, { what: 'callbackUrl' });
        } catch (err) {
          // A name without an address says so: the URL may be right, its DNS not there yet.
          if (err instanceof UnresolvableHostError) throw invalid(err.message);
          if (err instanceof UnsafeUrlError) throw invalid(CALLBACK);
          throw err;
        }
      }
      const { input, hosts } = checkInput(body.type, body.input);
      const now = Date.now();
      const job = await createJob({
        orgId: org.orgId,
        type: body.type,
        createdBy: callerId(caller),
        expiresAt: now + ttl * 1000,
        ...(body.label ? { label: body.label } : {}),
        hosts: [...new Set([...body.hosts, ...hosts])],
        input,
        ...(body.callbackUrl ? { callbackUrl: body.callbackUrl } : {}),
        createdAt: now,
        queueTtl: ttl,
      });
      return created({ jobId: job.jobId, expiresAt: job.expiresAt });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/agents/jobs/:jobId',
    scope: 'agents:read',
    summary: 'A job, and a 5-minute link to its results once done.',
    params: JobPath,
    errors: { 404: [JOB_MESSAGES.notFound] },
    run: async ({ org, params }) => {
      const job = await requireJob(org.orgId, params.jobId);
      return ok({ job: shownJob(job), resultsUrl: await resultsUrl(job) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/agents/jobs/:jobId/cancel',
    scope: 'agents:run',
    summary: 'Cancels a job: a queued one at once, a running one once its device stops (`canceling`).',
    params: JobPath,
    errors: { 404: [JOB_MESSAGES.notFound], 409: [JOB_MESSAGES.finished] },
    run: async ({ org, params, caller }) => {
      const job = await requireJob(org.orgId, params.jobId);
      return ok({ status: await cancelJob(job, callerId(caller)) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/agents/jobs/:jobId/request-access',
    scope: 'agents:run',
    summary:
      "For a queued job a device can't run: files its network requests for the hosts it lacks (the owner " +
      'approves them) and says what else is missing. Nothing changes until approved.',
    params: JobPath,
    body: z.object({ deviceId: z.string().check(z.minLength(1), z.maxLength(64)) }),
    errors: { 404: [JOB_MESSAGES.notFound, DEVICE_MESSAGES.deviceNotFound], 409: [JOB_MESSAGES.onlyQueued] },
    run: async ({ org, params, body }) => {
      const job = await requireJob(org.orgId, params.jobId);
      const device = await requireDevice(org.orgId, body.deviceId);
      if (device.status !== 'active') throw notFound(DEVICE_MESSAGES.deviceNotFound);
      if (job.status !== 'queued') throw conflict(JOB_MESSAGES.onlyQueued);
      const missing = missingFor(device, job);
      // Hosts no device may allow (an IP literal, localhost) are not asked for: only full network runs them.
      const requested = (missing.hosts ?? []).filter(isDeviceHost);
      for (const host of requested) await fileRequest(org.orgId, device.deviceId, host, `Job ${job.jobId}`, false);
      const others = { ...missing, ...(missing.hosts ? { network: 'allowlist' as const } : {}) };
      return ok({ requested, notified: false, ...(Object.keys(others).length > 0 ? { missing: others } : {}) });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/agents/login',
    scope: 'agents:write',
    summary:
      'Answers a device login (the user code the agent program shows): approved, the device becomes the ' +
      "caller's in this organization (http only, allowlist, no hosts). People only.",
    params: OrgPath,
    body: z.object({
      userCode: z.string().check(z.minLength(1), z.maxLength(16)),
      approve: z._default(z.boolean(), true),
    }),
    errors: { 403: [DEVICE_MESSAGES.peopleOnly], 404: [DEVICE_MESSAGES.codeNotFound], 409: [DEVICE_MESSAGES.codeUsed] },
    run: async ({ org, body, caller }) => {
      if (caller.kind !== 'user') throw forbidden(DEVICE_MESSAGES.peopleOnly);
      await answerLogin(
        org.orgId,
        { userId: caller.userId, name: caller.name ?? caller.email ?? null },
        body.userCode,
        body.approve,
      );
      return ok({ ok: true });
    },
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/:orgId/agents/devices/:deviceId',
    scope: 'agents:write',
    summary:
      "Changes a device's name, capabilities, network mode or allowed hosts. Adding a capability or full network " +
      "access is the device owner's alone.",
    params: DevicePath,
    body: z.object({
      networkMode: z.optional(z.enum(['allowlist', 'full'])),
      hosts: z.optional(z.array(Host).check(z.maxLength(MAX_HOSTS))),
      name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(64), oneLine)),
      capabilities: z.optional(z.array(z.enum(['http', 'browser', 'exec'])).check(z.minLength(1), z.maxLength(3))),
    }),
    errors: {
      400: [BAD_HOST],
      403: [DEVICE_MESSAGES.ownerOnly],
      404: [DEVICE_MESSAGES.deviceNotFound],
      409: [DEVICE_MESSAGES.changed],
    },
    run: async ({ org, params, body, caller }) => {
      const device = await requireDevice(org.orgId, params.deviceId, true);
      if (device.status !== 'active') throw notFound(DEVICE_MESSAGES.deviceNotFound);
      const owner = caller.kind === 'user' && caller.userId === device.userId;
      const adds = (body.capabilities ?? []).some((c) => !device.capabilities.includes(c));
      const opens = body.networkMode === 'full' && device.networkMode !== 'full';
      if ((adds || opens) && !owner) throw forbidden(DEVICE_MESSAGES.ownerOnly);
      const fields: Partial<DeviceRecord> = { updatedAt: Date.now() };
      if (body.name !== undefined) fields.name = body.name;
      if (body.networkMode !== undefined) fields.networkMode = body.networkMode;
      if (body.hosts !== undefined) fields.hosts = [...new Set(body.hosts)];
      if (body.capabilities !== undefined) fields.capabilities = [...new Set(body.capabilities)] as Capability[];
      await updateDevice(device, fields);
      return ok({ ok: true });
    },
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/:orgId/agents/devices/:deviceId',
    scope: 'agents:write',
    summary: 'Revokes a device and its token at once (its next call is 401); its running jobs fail.',
    params: DevicePath,
    errors: { 404: [DEVICE_MESSAGES.deviceNotFound] },
    run: async ({ org, params }) => {
      const device = await requireDevice(org.orgId, params.deviceId, true);
      if (device.status === 'active') await revokeDevice(device);
      // Again on a repeat: a revoke whose jobs were not all ended finishes here.
      await endDeviceJobs(device);
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/agents/requests/:deviceId/:host/:decision',
    scope: 'agents:write',
    summary: "Decides a device's network request: `approve` adds the host to its allowlist; anything else denies.",
    params: z.object({ orgId: z.string(), deviceId: z.string(), host: z.string(), decision: z.string() }),
    errors: {
      400: [BAD_HOST],
      404: [DEVICE_MESSAGES.requestNotFound, DEVICE_MESSAGES.deviceNotFound],
      409: [DEVICE_MESSAGES.changed, DEVICE_MESSAGES.tooManyHosts],
    },
    run: async ({ org, params }) => {
      await decideRequest(org.orgId, params.deviceId, params.host.toLowerCase(), params.decision === 'approve');
      return ok({ ok: true });
    },
  }),
];
