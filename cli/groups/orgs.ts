import type { Operations } from '../../client';
import { writeConfig } from '../config';
import { openSession, UsageError } from '../context';
import { table, when } from '../output';
import type { CommandSpec, Ctx } from '../spec';
import { intOption, list } from './common';

/**
 * `org`: organizations (create, list), their members and invitations, and their API keys, over
 * the typed client. (`key` is git credentials; an organization's API keys are `org keys`.)
 */

type Role = Operations['postMembers']['body']['role'];
type Scope = Operations['postKeys']['body']['scopes'][number];
const ROLES: Role[] = ['owner', 'admin', 'developer', 'viewer'];

const org = async (c: Ctx) => {
  const s = await c.session();
  return { api: s.api, orgId: s.config.orgId, slug: s.config.orgSlug };
};

function roleOf(value: string | undefined): Role {
  if (!value) throw new UsageError(`Name a role with --role: ${ROLES.join(', ')}.`);
  if (!(ROLES as string[]).includes(value)) throw new UsageError(`Unknown role ${value}: use ${ROLES.join(', ')}.`);
  return value as Role;
}

const ROLE_OPTION = {
  role: { type: 'string', value: 'ROLE', help: `${ROLES.join(', ')}` },
} as const;

/** A member named by user id or email. */
async function memberId(c: Ctx, who: string): Promise<string> {
  if (!who.includes('@')) return who;
  const { api, orgId } = await org(c);
  const { members } = await api.getMembers({ orgId });
  const found = members.find((m) => m.email?.toLowerCase() === who.toLowerCase());
  if (!found) throw new UsageError(`${who} is not a member of this organization.`);
  return found.userId;
}

const listMembers = async (c: Ctx) => {
  const { api, orgId } = await org(c);
  const res = await api.getMembers({ orgId });
  return c.print(res, () =>
    table(
      [
        ['USER', 'EMAIL', 'NAME', 'ROLE', 'JOINED'],
        ...res.members.map((m) => [m.userId, m.email ?? '', m.name ?? '', m.role, when(m.joinedAt)]),
      ],
      c.io,
      [0, 3, 4],
    ),
  );
};

/** The session of a command a person runs for themselves, also before they belong to any organization. */
const personal = (c: Ctx) => openSession(c.io, { profile: c.str('profile'), withoutOrg: true });

/** A profile saved in no organization takes the first one the person creates or joins. */
function adopt(
  c: Ctx,
  config: { baseUrl: string; token: string; orgId: string },
  joined: { orgId: string; slug: string },
) {
  if (config.orgId) return '';
  writeConfig(c.io.env, { ...config, orgId: joined.orgId, orgSlug: joined.slug }, c.str('profile'));
  return `\nYour profile now uses ${joined.slug}.`;
}

const listInvites = async (c: Ctx) => {
  if (c.flag('mine')) {
    const s = await personal(c);
    const res = await s.api.getMeInvites();
    return c.print(res, () =>
      res.invites.length === 0
        ? 'No invitations for you.'
        : table(
            [
              ['ID', 'ORGANIZATION', 'ROLE', 'EXPIRES'],
              ...res.invites.map((i) => [i.inviteId, i.org.slug, i.role, when(i.expiresAt)]),
            ],
            c.io,
            [0, 2, 3],
          ),
    );
  }
  const { api, orgId } = await org(c);
  const res = await api.getMembers({ orgId });
  const invites = res.invites ?? [];
  return c.print({ invites }, () =>
    invites.length === 0
      ? 'No pending invitations. Invite someone: platform org members invite <email> --role developer'
      : table(
          [['ID', 'EMAIL', 'ROLE', 'EXPIRES'], ...invites.map((i) => [i.inviteId, i.email, i.role, when(i.expiresAt)])],
          c.io,
          [0, 2, 3],
        ),
  );
};

const MINE = {
  mine: { type: 'boolean', help: 'the invitations to your own email address, in any organization' },
} as const;

export const ORG_COMMANDS: CommandSpec[] = [
  {
    path: ['org', 'create'],
    summary: 'create an organization; you are its owner',
    options: {
      slug: { type: 'string', value: 'SLUG', help: '2-40 lowercase letters, digits and hyphens (it never changes)' },
      name: { type: 'string', value: 'NAME', help: 'its display name' },
    },
    examples: ['platform org create --slug acme --name "Acme Inc"'],
    run: async (c) => {
      const slug = c.str('slug');
      const name = c.str('name');
      if (!slug) throw new UsageError('Name its slug with --slug.');
      if (!name) throw new UsageError('Name it with --name.');
      const s = await personal(c);
      const res = await s.api.postOrgs({ body: { slug, name } });
      const adopted = adopt(c, s.config, res.org);
      return c.print(
        res,
        () =>
          `Created ${res.org.slug} (${res.org.orgId}); you are its owner.\n` +
          (adopted ? adopted.trim() : `Use it with --org ${res.org.slug}, or: platform login --org ${res.org.slug}`),
      );
    },
  },
  {
    path: ['org', 'list'],
    aliases: ['ls'],
    summary: 'your organizations, with your role in each',
    examples: ['platform org list'],
    run: async (c) => {
      const s = await personal(c);
      const res = await s.api.getMe();
      return c.print({ orgs: res.me.orgs }, () =>
        table(
          [
            ['', 'SLUG', 'NAME', 'ROLE', 'ID'],
            ...res.me.orgs.map((o) => [
              o.orgId === s.config.orgId ? '*' : '',
              o.slug,
              o.name,
              o.role ?? '(key)',
              o.orgId,
            ]),
          ],
          c.io,
          [0, 3, 4],
        ),
      );
    },
  },
  {
    path: ['org', 'members'],
    hidden: true,
    summary: "the organization's members (as org members list)",
    run: listMembers,
  },
  {
    path: ['org', 'members', 'list'],
    aliases: ['ls'],
    summary: "the organization's members and their roles",
    examples: ['platform org members list'],
    run: listMembers,
  },
  {
    path: ['org', 'members', 'add'],
    summary: 'add a person who has an account, by email (others: org members invite)',
    positionals: [{ name: 'email', required: true }],
    options: ROLE_OPTION,
    examples: ['platform org members add ada@example.com --role developer'],
    run: async (c) => {
      const role = roleOf(c.str('role'));
      const { api, orgId } = await org(c);
      const res = await api.postMembers({ orgId, body: { email: c.args[0] as string, role } });
      return c.print(res, () => `Added ${res.member.email ?? res.member.userId} as ${res.member.role}.`);
    },
  },
  {
    path: ['org', 'members', 'invite'],
    summary: 'invite an email address with a role (mailed; valid 7 days)',
    positionals: [{ name: 'email', required: true }],
    options: ROLE_OPTION,
    examples: ['platform org members invite grace@example.com --role admin'],
    run: async (c) => {
      const role = roleOf(c.str('role'));
      const { api, orgId } = await org(c);
      const res = await api.postMembersInvites({ orgId, body: { email: c.args[0] as string, role } });
      return c.print(
        res,
        () =>
          `Invited ${res.invite.email} as ${res.invite.role} (${res.invite.inviteId}, expires ${when(res.invite.expiresAt)}).`,
      );
    },
  },
  {
    path: ['org', 'members', 'role'],
    summary: "change a member's role (by user id or email)",
    positionals: [
      { name: 'member', required: true },
      { name: 'role', required: true },
    ],
    examples: ['platform org members role ada@example.com admin'],
    run: async (c) => {
      const role = roleOf(c.args[1]);
      const userId = await memberId(c, c.args[0] as string);
      const { api, orgId } = await org(c);
      const res = await api.patchMembersByUserId({ orgId, userId, body: { role } });
      return c.print(res, () => `${res.member.email ?? res.member.userId} is now ${res.member.role}.`);
    },
  },
  {
    path: ['org', 'members', 'remove'],
    aliases: ['rm'],
    summary: 'remove a member (by user id or email): they lose access at once',
    positionals: [{ name: 'member', required: true }],
    examples: ['platform org members remove ada@example.com'],
    run: async (c) => {
      const userId = await memberId(c, c.args[0] as string);
      const { api, orgId } = await org(c);
      await api.deleteMembersByUserId({ orgId, userId });
      return c.print({ removed: userId }, () => `Removed ${c.args[0]}.`);
    },
  },
  {
    path: ['org', 'invites'],
    hidden: true,
    summary: "the organization's pending invitations (as org invites list)",
    options: MINE,
    run: listInvites,
  },
  {
    path: ['org', 'invites', 'list'],
    aliases: ['ls'],
    summary: "the organization's pending invitations (--mine: those to you)",
    options: MINE,
    examples: ['platform org invites list', 'platform org invites list --mine'],
    run: listInvites,
  },
  {
    path: ['org', 'invites', 'revoke'],
    summary: 'withdraw an invitation: it can no longer be accepted',
    positionals: [{ name: 'inviteId', required: true }],
    examples: ['platform org invites revoke inv_01m8bqewt1ntccd2hvfr1kpxzm'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      await api.deleteMembersInvitesByInviteId({ orgId, inviteId: c.args[0] as string });
      return c.print({ revoked: c.args[0] }, () => `Withdrew ${c.args[0]}.`);
    },
  },
  {
    path: ['org', 'invites', 'accept'],
    summary: 'accept an invitation to your email address: you join its organization',
    positionals: [{ name: 'inviteId', required: true }],
    examples: ['platform org invites accept inv_01m8bqewt1ntccd2hvfr1kpxzm'],
    run: async (c) => {
      const s = await personal(c);
      const res = await s.api.postMeInvitesAccept({ inviteId: c.args[0] as string });
      const adopted = adopt(c, s.config, res.org);
      return c.print(
        res,
        () => `Joined ${res.org.slug} as ${res.member.role}.${adopted || ` Use it with --org ${res.org.slug}.`}`,
      );
    },
  },
  {
    path: ['org', 'keys', 'list'],
    aliases: ['ls'],
    summary: "the organization's API keys (never their secrets)",
    examples: ['platform org keys list'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.getKeys({ orgId });
      return c.print(res, () =>
        res.keys.length === 0
          ? 'No API keys. Create one: platform org keys create <name> --scopes projects:read'
          : table(
              [
                ['ID', 'NAME', 'SCOPES', 'CREATED', 'EXPIRES'],
                ...res.keys.map((k) => [
                  k.keyId,
                  k.name ?? '',
                  k.scopes.join(','),
                  when(k.createdAt),
                  k.expiresAt ? when(k.expiresAt) : 'never',
                ]),
              ],
              c.io,
              [0, 3, 4],
            ),
      );
    },
  },
  {
    path: ['org', 'keys', 'create'],
    summary: 'create an API key with scopes you hold; its secret is shown once',
    positionals: [{ name: 'name', required: true }],
    options: {
      scopes: { type: 'string', value: 'a,b', help: 'what it may do (scope names, comma separated)' },
      days: { type: 'string', value: 'N', help: 'it expires after N days (default: never)' },
    },
    examples: ['platform org keys create ci --scopes projects:read,deployments:write --days 90'],
    run: async (c) => {
      const scopes = list(c.str('scopes'));
      if (!scopes || scopes.length === 0) throw new UsageError('Name its scopes with --scopes (a,b).');
      const days = intOption(c, 'days', 1, 3650);
      const { api, orgId } = await org(c);
      const res = await api.postKeys({
        orgId,
        body: {
          name: c.args[0] as string,
          scopes: scopes as Scope[],
          ...(days ? { expiresAt: Date.now() + days * 24 * 3600_000 } : {}),
        },
      });
      return c.print(
        res,
        () =>
          `Created ${res.key.keyId} (${res.key.scopes.join(', ')}).\n` +
          `Secret: ${res.secret}\nKeep it now: it is not shown again.`,
      );
    },
  },
  {
    path: ['org', 'keys', 'revoke'],
    summary: 'revoke an API key: it stops working at once',
    positionals: [{ name: 'keyId', required: true }],
    examples: ['platform org keys revoke key_01m8bhkc6vx3w8m2ts0cq9a7rn'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      await api.deleteKeysByKeyId({ orgId, keyId: c.args[0] as string });
      return c.print({ revoked: c.args[0] }, () => `Revoked ${c.args[0]}.`);
    },
  },
];
