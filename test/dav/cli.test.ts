import { Cli } from '../cli/helpers';
import { type Person, TestPlatform } from '../helpers/platform';

/**
 * `platform dav password create|ls|revoke` on the local platform, as a child process: the
 * password printed once with the address and user name to type into a program, and it signs in;
 * listed without it; revoked, it stops.
 */
let p: TestPlatform;
let person: Person;
let cli: Cli;
beforeAll(async () => {
  p = await TestPlatform.start();
  person = await p.person('developer');
  cli = new Cli();
  expect((await cli.run(['login', '--url', p.baseUrl, '--token', person.token])).code).toBe(0);
});
afterAll(() => p?.close());

const propfind = (password: string) =>
  fetch(`${p.baseUrl}/dav/`, {
    method: 'PROPFIND',
    headers: { depth: '0', authorization: `Basic ${Buffer.from(`${person.email}:${password}`).toString('base64')}` },
  });

test('create prints the password once with where to use it; ls lists it; revoke ends it', async () => {
  const made = await cli.run(['dav', 'password', 'create', 'Phone', '--scope', 'calendars', '--read-only']);
  expect(made.code).toBe(0);
  const password = /Password: (\S+)/.exec(made.stdout)?.[1] as string;
  const id = password.split('.')[0] as string;
  expect(made.stdout).toBe(
    [
      `Created ${id} (calendars, read-only).`,
      `Server:   ${p.baseUrl}/.well-known/caldav  (contacts: ${p.baseUrl}/.well-known/carddav)`,
      `User:     ${person.email}`,
      `Password: ${password}`,
      'Keep the password now: it is not shown again (revoke it with platform dav password revoke).',
      '',
    ].join('\n'),
  );
  expect((await propfind(password)).status).toBe(207);

  const listed = await cli.run(['dav', 'password', 'ls']);
  // Piped: whole tab-separated rows, no header.
  expect(listed.stdout).toMatch(
    new RegExp(`^${id}\\tPhone\\tcalendars\\tread\\t\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}\\t`),
  );
  expect(listed.stdout).not.toContain(password.split('.')[1]);
  const json = JSON.parse((await cli.run(['dav', 'password', 'ls', '--json'])).stdout);
  expect(json).toEqual((await p.get('/v1/me/app-passwords', { token: person.token })).body);

  const bad = await cli.run(['dav', 'password', 'create', 'x', '--scope', 'mail']);
  expect(bad).toMatchObject({
    code: 2,
    stderr: expect.stringContaining('--scope is calendars or contacts, not mail.'),
  });

  expect(await cli.run(['dav', 'password', 'revoke', id])).toMatchObject({ code: 0, stdout: `Revoked ${id}.\n` });
  expect((await propfind(password)).status).toBe(401);
  const again = await cli.run(['dav', 'password', 'revoke', id]);
  expect(again).toMatchObject({ code: 1, stderr: 'Error: App password not found\n' });
  expect((await cli.run(['dav', 'password', 'ls'])).stdout).toBe(
    'No app passwords. Make one: platform dav password create <name>\n',
  );
});
