import { queryAll } from '../../shared/kernel/store/ops';
import { type Person, TestPlatform } from '../helpers/platform';

/**
 * A person's app passwords (`/v1/me/app-passwords`, docs/routes/dav.md): made with a name, scopes
 * and access, the password answered once; listed without it (with when made and last used);
 * revoked; and every error: a key (403), too long or empty names and unknown scopes (400), more
 * than 25 (409), another person's or an unknown one (404).
 */
let p: TestPlatform;
let person: Person;
beforeAll(async () => {
  p = await TestPlatform.start();
  person = await p.person('developer');
});
afterAll(() => p.close());

const AS = () => ({ token: person.token });

test('made, shown once, listed without the password, used, revoked', async () => {
  const made = await p.post('/v1/me/app-passwords', { name: '  Phone  ', scopes: ['calendars'], access: 'read' }, AS());
  expect(made.status).toBe(201);
  expect(made.body).toEqual({
    appPassword: {
      passwordId: expect.stringMatching(/^apw_[0-9a-z]{26}$/),
      name: 'Phone',
      scopes: ['calendars'],
      access: 'read',
      createdAt: expect.any(Number),
      lastUsedAt: null,
    },
    password: expect.stringMatching(/^apw_[0-9a-z]{26}\.[A-Za-z0-9_-]{32}$/),
  });
  const { passwordId } = made.body.appPassword;
  const defaults = await p.post('/v1/me/app-passwords', { name: 'Laptop' }, AS());
  expect(defaults.body.appPassword).toMatchObject({ scopes: ['calendars', 'contacts'], access: 'readwrite' });

  const listed = await p.get('/v1/me/app-passwords', AS());
  expect(listed.status).toBe(200);
  expect(listed.body.appPasswords.map((a: { name: string }) => a.name)).toEqual(['Laptop', 'Phone']);
  expect(listed.text).not.toContain(made.body.password.split('.')[1]);
  expect(listed.text).not.toMatch(/"(hash|salt)"/);

  // Used by a program: its last use is recorded.
  const auth = `Basic ${Buffer.from(`${person.email}:${made.body.password}`).toString('base64')}`;
  const dav = await fetch(`${p.baseUrl}/dav/`, { method: 'PROPFIND', headers: { authorization: auth, depth: '0' } });
  expect(dav.status).toBe(207);
  const used = (await p.get('/v1/me/app-passwords', AS())).body.appPasswords.find(
    (a: { passwordId: string }) => a.passwordId === passwordId,
  );
  expect(used.lastUsedAt).toEqual(expect.any(Number));

  expect((await p.delete(`/v1/me/app-passwords/${passwordId}`, AS())).status).toBe(204);
  expect(
    (await fetch(`${p.baseUrl}/dav/`, { method: 'PROPFIND', headers: { authorization: auth, depth: '0' } })).status,
  ).toBe(401);
  // Audited in the person's own log: the create and the revoke, never the password.
  const audit = await queryAll<{ action: string; status: number }>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': `AUDIT#~${person.userId}` },
  });
  expect(audit.map((a) => [a.action, a.status])).toEqual(
    expect.arrayContaining([
      ['me.app-passwords.create', 201],
      ['me.app-passwords.delete', 204],
    ]),
  );
  expect(JSON.stringify(audit)).not.toContain(made.body.password.split('.')[1]);
  const again = await p.delete(`/v1/me/app-passwords/${passwordId}`, AS());
  expect(again).toMatchObject({ status: 404, body: { error: 'App password not found' } });
  // Another person's is not found either.
  const theirs = await p.delete(`/v1/me/app-passwords/${defaults.body.appPassword.passwordId}`);
  expect(theirs).toMatchObject({ status: 404, body: { error: 'App password not found' } });
});

test('400 for a bad name, scope or access; 403 for keys; 409 past 25', async () => {
  for (const body of [
    {},
    { name: '' },
    { name: 'x'.repeat(101) },
    { name: 'a\nb' },
    { name: 'x', scopes: [] },
    { name: 'x', scopes: ['mail'] },
    { name: 'x', access: 'admin' },
  ]) {
    expect((await p.post('/v1/me/app-passwords', body, AS())).status).toBe(400);
  }
  const key = await p.apiKey();
  for (const res of [
    await p.post('/v1/me/app-passwords', { name: 'k' }, { token: key }),
    await p.get('/v1/me/app-passwords', { token: key }),
    await p.delete('/v1/me/app-passwords/apw_x', { token: key }),
  ]) {
    expect(res).toMatchObject({ status: 403, body: { error: 'Only people have app passwords.' } });
  }
  expect((await p.get('/v1/me/app-passwords', { token: null })).status).toBe(401);

  const other = await p.person('viewer');
  for (let i = 0; i < 25; i++)
    expect((await p.post('/v1/me/app-passwords', { name: `n${i}` }, { token: other.token })).status).toBe(201);
  const over = await p.post('/v1/me/app-passwords', { name: 'one more' }, { token: other.token });
  expect(over).toMatchObject({
    status: 409,
    body: { error: 'A person can have at most 25 app passwords: revoke one first.' },
  });
});
