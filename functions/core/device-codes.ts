import * as z from 'zod/mini';
import { pendingLogin } from '../../shared/domains/agents/devices';
import { forbidden, notFound } from '../../shared/kernel/ground/errors';
import { ok, route } from '../../shared/kernel/http/route';
import { DEVICE_CODE_MESSAGES } from '../../shared/kernel/identity/device-codes';
import { pendingSessionLogin } from '../../shared/kernel/identity/sessions';

/** What answering a code needs to show first: people only, as answering it is. */
export const DEVICE_CODE_LOOKUP_MESSAGES = {
  peopleOnly: 'Only a person answers a device code: sign in (an API key can’t).',
  codeNotFound: DEVICE_CODE_MESSAGES.codeNotFound,
} as const;

/**
 * What a device code typed by a person asks for (`/v1/me/device-codes/:userCode`), before they
 * answer it: an agent program joining an organization as their device (answered at
 * `POST …/agents/login`) or the command line signing in as them (`POST /v1/login/device/answer`).
 * The web app's approval page shows it, as the local `/device` page does.
 */
export const deviceCodeRoutes = [
  route({
    method: 'GET',
    path: '/v1/me/device-codes/:userCode',
    access: 'token',
    summary:
      'What a device code asks for before the person answers it: `agent-device` (an agent program joining an organization as their device, with its capabilities: answer with `POST /v1/orgs/:orgId/agents/login`) or `command-line` (the CLI signing in as them: answer with `POST /v1/login/device/answer`); its name, system and status. People only.',
    params: z.object({ userCode: z.string().check(z.minLength(1), z.maxLength(32)) }),
    errors: { 403: [DEVICE_CODE_LOOKUP_MESSAGES.peopleOnly], 404: [DEVICE_CODE_LOOKUP_MESSAGES.codeNotFound] },
    run: async ({ caller, params }) => {
      if (caller.kind !== 'user') throw forbidden(DEVICE_CODE_LOOKUP_MESSAGES.peopleOnly);
      const device = await pendingLogin(params.userCode);
      if (device) {
        const { userCode, name, platform, capabilities, status } = device;
        return ok({
          deviceCode: {
            kind: 'agent-device',
            userCode,
            name: name ?? null,
            platform: platform ?? null,
            capabilities,
            status,
          },
        });
      }
      const session = await pendingSessionLogin(params.userCode);
      if (!session) throw notFound(DEVICE_CODE_LOOKUP_MESSAGES.codeNotFound);
      const { userCode, name, platform, status } = session;
      return ok({
        deviceCode: {
          kind: 'command-line',
          userCode,
          name: name ?? null,
          platform: platform ?? null,
          capabilities: [],
          status,
        },
      });
    },
  }),
];
