import * as z from 'zod/mini';
import {
  answerLogin,
  type Capability,
  type DeviceRecord,
  DM,
  decideRequest,
  listDevices,
  listRequests,
  MAX_HOSTS,
  requireDevice,
  revokeDevice,
  updateDevice,
} from '../../shared/agents/devices';
import { forbidden, notFound } from '../../shared/ground/errors';
import { noContent, ok, route } from '../../shared/http/route';
import { publicFields } from '../../shared/store/table';

const OrgPath = z.object({ orgId: z.string() });
const DevicePath = z.object({ orgId: z.string(), deviceId: z.string() });

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

export const routes = [
  route({
    method: 'GET',
    path: '/v1/orgs/:orgId/agents',
    scope: 'agents:read',
    summary: "The organization's devices, their pending network requests and the latest jobs.",
    params: OrgPath,
    run: async ({ org }) => {
      const [devices, requests] = await Promise.all([listDevices(org.orgId), listRequests(org.orgId)]);
      return ok({
        devices: devices.map(shown),
        requests: requests
          .filter((r) => r.status === 'pending')
          .map((r) => publicFields(r as typeof r & Record<string, unknown>)),
        // Jobs are not built yet: no job can exist.
        jobs: [],
      });
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
    errors: { 403: [DM.peopleOnly], 404: [DM.codeNotFound], 409: [DM.codeUsed] },
    run: async ({ org, body, caller }) => {
      if (caller.kind !== 'user') throw forbidden(DM.peopleOnly);
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
      name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))),
      capabilities: z.optional(z.array(z.enum(['http', 'browser', 'exec'])).check(z.minLength(1), z.maxLength(3))),
    }),
    errors: { 403: [DM.ownerOnly], 404: [DM.deviceNotFound], 409: [DM.changed] },
    run: async ({ org, params, body, caller }) => {
      const device = await requireDevice(org.orgId, params.deviceId, true);
      if (device.status !== 'active') throw notFound(DM.deviceNotFound);
      const owner = caller.kind === 'user' && caller.userId === device.userId;
      const adds = (body.capabilities ?? []).some((c) => !device.capabilities.includes(c));
      const opens = body.networkMode === 'full' && device.networkMode !== 'full';
      if ((adds || opens) && !owner) throw forbidden(DM.ownerOnly);
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
    summary: 'Revokes a device and its token at once: its next call is 401.',
    params: DevicePath,
    errors: { 404: [DM.deviceNotFound] },
    run: async ({ org, params }) => {
      const device = await requireDevice(org.orgId, params.deviceId, true);
      if (device.status === 'active') await revokeDevice(device);
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/:orgId/agents/requests/:deviceId/:host/:decision',
    scope: 'agents:write',
    summary: "Decides a device's network request: `approve` adds the host to its allowlist; anything else denies.",
    params: z.object({ orgId: z.string(), deviceId: z.string(), host: z.string(), decision: z.string() }),
    errors: { 404: [DM.requestNotFound, DM.deviceNotFound], 409: [DM.changed, DM.tooManyHosts] },
    run: async ({ org, params }) => {
      await decideRequest(org.orgId, params.deviceId, params.host.toLowerCase(), params.decision === 'approve');
      return ok({ ok: true });
    },
  }),
];
