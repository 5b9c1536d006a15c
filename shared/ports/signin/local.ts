import { randomBytes } from 'node:crypto';
import { newId } from '../../kernel/store/ids';
import type { SigninPort } from './port';

/**
 * One machine: the local identity provider has no store of its own; it reads the clients' records
 * (shared/domains/signin-clients/clients.ts) from the platform table. This adapter only makes ids and secrets.
 */
export const localSignin = (): SigninPort => ({
  async create(spec) {
    const clientId = newId('cli_');
    return spec.type === 'web' ? { clientId, secret: newSecret() } : { clientId };
  },
  async update() {},
  async remove() {},
  async addSecret() {
    return newSecret();
  },
  async removeSecret() {},
});

const newSecret = () => ({ secretId: newId('csec_'), value: `app_cs_${randomBytes(32).toString('base64url')}` });
