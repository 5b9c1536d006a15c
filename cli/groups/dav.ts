import type { Operations } from '../../client';
import { UsageError } from '../context';
import { table, when } from '../output';
import type { CommandSpec, Ctx } from '../spec';

/**
 * `dav password`: the person's app passwords for calendar and contacts programs (CalDAV,
 * CardDAV: Apple Calendar, Thunderbird, DAVx⁵, vdirsyncer), over the typed client.
 */
type Scope = Operations['postMeAppPasswords']['body']['scopes'] extends (infer S)[] | undefined ? S : never;

const api = async (c: Ctx) => (await c.session()).api;
const baseOf = async (c: Ctx) => (await c.session()).config.baseUrl.replace(/\/+$/, '');

const scopesOf = (c: Ctx): Scope[] | undefined => {
  const given = c
    .all('scope')
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of given)
    if (s !== 'calendars' && s !== 'contacts') throw new UsageError(`--scope is calendars or contacts, not ${s}.`);
  return given.length ? (given as Scope[]) : undefined;
};

export const DAV_COMMANDS: CommandSpec[] = [
  {
    path: ['dav', 'password', 'create'],
    summary: 'an app password for a calendar or contacts program (shown once)',
    positionals: [{ name: 'name', required: true }],
    options: {
      scope: {
        type: 'string',
        value: 'S',
        help: 'calendars or contacts (repeat, or a comma list; default both)',
        multiple: true,
      },
      'read-only': { type: 'boolean', help: 'the program may read, not change' },
    },
    examples: [
      'platform dav password create "Phone"',
      'platform dav password create laptop --scope calendars --read-only',
    ],
    run: async (c) => {
      const client = await api(c);
      const res = await client.postMeAppPasswords({
        body: { name: c.args[0] as string, scopes: scopesOf(c), access: c.flag('read-only') ? 'read' : 'readwrite' },
      });
      const me = await client.getMe({});
      const base = await baseOf(c);
      return c.print(res, () =>
        [
          `Created ${res.appPassword.passwordId} (${res.appPassword.scopes.join(', ')}, ${res.appPassword.access === 'read' ? 'read-only' : 'read-write'}).`,
          `Server:   ${base}/.well-known/caldav  (contacts: ${base}/.well-known/carddav)`,
          `User:     ${me.me.email ?? ''}`,
          `Password: ${res.password}`,
          'Keep the password now: it is not shown again (revoke it with platform dav password revoke).',
        ].join('\n'),
      );
    },
  },
  {
    path: ['dav', 'password', 'list'],
    aliases: ['ls'],
    summary: 'your app passwords: name, scopes, when made and last used',
    examples: ['platform dav password list', 'platform dav password ls --json'],
    run: async (c) => {
      const res = await (await api(c)).getMeAppPasswords({});
      return c.print(res, () =>
        res.appPasswords.length === 0
          ? 'No app passwords. Make one: platform dav password create <name>'
          : table(
              [
                ['ID', 'NAME', 'SCOPES', 'ACCESS', 'CREATED', 'LAST USED'],
                ...res.appPasswords.map((a) => [
                  a.passwordId,
                  a.name,
                  a.scopes.join(','),
                  a.access,
                  when(a.createdAt),
                  a.lastUsedAt ? when(a.lastUsedAt) : 'never',
                ]),
              ],
              c.io,
              [0, 2, 3, 4, 5],
            ),
      );
    },
  },
  {
    path: ['dav', 'password', 'revoke'],
    summary: 'revoke an app password: programs using it are signed out',
    positionals: [{ name: 'passwordId', required: true }],
    examples: ['platform dav password revoke apw_01m8bqewt1ntccd2hvfr1kpxzm'],
    run: async (c) => {
      await (await api(c)).deleteMeAppPasswordsByPasswordId({ passwordId: c.args[0] as string });
      return c.print({ revoked: c.args[0] }, () => `Revoked ${c.args[0]}.`);
    },
  },
];
