import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import type { Person, TestPlatform } from '../helpers/platform';

/** A device login's record key (the device code is stored only as its hash). */
export const loginKey = (deviceCode: string) => ({
  pk: `DEVLOGIN#${createHash('sha256').update(deviceCode).digest('hex')}`,
  sk: 'LOGIN',
});

/** RFC 8628 lets the device ask every `interval` seconds: the tests move the last ask back instead of waiting. */
export async function forgetLastPoll(deviceCode: string) {
  await db.send(
    new UpdateCommand({ TableName: TABLE(), Key: loginKey(deviceCode), UpdateExpression: 'REMOVE lastPollAt' }),
  );
}

/** A device approved by `by` (the owner by default) through the device login: its id and token. */
export async function loggedInDevice(p: TestPlatform, by: Person = p.owner, name = 'laptop') {
  const start = await p.post('/v1/agent/login', { name, platform: 'linux-x64', version: '1.0.0' }, { token: null });
  await p.post(`/v1/orgs/${p.org.orgId}/agents/login`, { userCode: start.body.userCode }, { token: by.token });
  const token = await p.post('/v1/agent/login/token', { deviceCode: start.body.deviceCode }, { token: null });
  if (token.status !== 200) throw new Error(`device login: ${token.status} ${token.text}`);
  return token.body as { token: string; deviceId: string; orgId: string };
}
