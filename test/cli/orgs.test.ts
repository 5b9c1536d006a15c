import { ensureUser } from '../../shared/kernel/identity/users';
import { TestPlatform } from '../helpers/platform';
import { Cli } from './helpers';

/**
 * `platform org …` on the local platform, each command a child process: an organization created
 * by a person, members added, invited (and the invitation accepted by the invitee's own command
 * line), re-roled and removed, API keys created, listed and revoked.
 */
let p: TestPlatform;
let owner: Cli;
let invitee: Cli;
let inviteeEmail: string;
const slug = `cli-org-${process.pid.toString(36)}-${Date.now().toString(36)}`;

const json = async (c: Cli, argv: string[]) => {
  const res = await c.run([...argv, '--json']);
  expect({ argv, code: res.code, stderr: res.stderr }).toEqual({ argv, code: 0, stderr: '' });
  return JSON.parse(res.stdout);
};

beforeAll(async () => {
  p = await TestPlatform.start();
  owner = new Cli();
  expect((await owner.run(['login', '--url', p.baseUrl, '--token', p.owner.token])).code).toBe(0);
  const viewer = await p.person('viewer');
  inviteeEmail = viewer.email;
  invitee = new Cli();
  expect((await invitee.run(['login', '--url', p.baseUrl, '--token', viewer.token])).code).toBe(0);
});
afterAll(async () => {
  await p?.close();
});

describe('platform org', () => {
  it('create, list, members, invites, keys', async () => {
    const created = await owner.run(['org', 'create', '--slug', slug, '--name', 'CLI Org']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(new RegExp(`^Created ${slug} \\(org_[0-9a-z]+\\); you are its owner\\.`));
    const orgs = await json(owner, ['org', 'list']);
    const made = orgs.orgs.find((o: { slug: string }) => o.slug === slug);
    expect(made).toMatchObject({ name: 'CLI Org', role: 'owner', kind: 'customer' });
    const listed = await owner.run(['org', 'ls']);
    expect(listed.stdout).toContain(`\t${slug}\tCLI Org\towner\t${made.orgId}`);
    const at = ['--org', slug];

    // A person with an account, added directly; their role changed, then removed (by email).
    const someone = await ensureUser(`cli-someone-${Date.now().toString(36)}@example.com`, 'Someone');
    const added = await json(owner, ['org', 'members', 'add', someone.email, '--role', 'developer', ...at]);
    expect(added.member).toMatchObject({ userId: someone.userId, role: 'developer' });
    const roled = await owner.run(['org', 'members', 'role', someone.email, 'admin', ...at]);
    expect(roled).toEqual({ code: 0, stdout: `${someone.email} is now admin.\n`, stderr: '' });
    const members = await json(owner, ['org', 'members', ...at]);
    expect(members.members.map((m: { role: string }) => m.role).sort()).toEqual(['admin', 'owner']);
    const removed = await owner.run(['org', 'members', 'rm', someone.email, ...at]);
    expect(removed).toEqual({ code: 0, stdout: `Removed ${someone.email}.\n`, stderr: '' });

    // An invitation, seen and accepted by the invitee's own command line.
    const invited = await json(owner, ['org', 'members', 'invite', inviteeEmail, '--role', 'developer', ...at]);
    const inviteId = invited.invite.inviteId as string;
    expect((await json(owner, ['org', 'invites', 'ls', ...at])).invites).toEqual([invited.invite]);
    const mine = await json(invitee, ['org', 'invites', 'list', '--mine']);
    expect(mine.invites).toEqual([expect.objectContaining({ inviteId, org: expect.objectContaining({ slug }) })]);
    const accepted = await invitee.run(['org', 'invites', 'accept', inviteId]);
    expect(accepted).toEqual({
      code: 0,
      stdout: `Joined ${slug} as developer. Use it with --org ${slug}.\n`,
      stderr: '',
    });
    expect((await json(invitee, ['org', 'list'])).orgs.map((o: { slug: string }) => o.slug)).toContain(slug);

    // Withdrawing an invitation.
    const other = await json(owner, ['org', 'members', 'invite', 'later@example.com', '--role', 'viewer', ...at]);
    const withdrawn = await owner.run(['org', 'invites', 'revoke', other.invite.inviteId, ...at]);
    expect(withdrawn.code).toBe(0);
    expect((await json(owner, ['org', 'invites', ...at])).invites).toEqual([]);

    // API keys: the secret once, never in the list; revoked.
    const key = await json(owner, [
      'org',
      'keys',
      'create',
      'ci',
      '--scopes',
      'org:read,projects:read',
      '--days',
      '30',
      ...at,
    ]);
    expect(key.secret).toMatch(/^app_api_/);
    expect(key.key).toMatchObject({ name: 'ci', scopes: ['org:read', 'projects:read'], expiresAt: expect.any(Number) });
    const keys = await owner.run(['org', 'keys', 'ls', ...at]);
    expect(keys.stdout).toContain(key.key.keyId);
    expect(keys.stdout).not.toContain(key.secret);
    const revoked = await owner.run(['org', 'keys', 'revoke', key.key.keyId, ...at]);
    expect(revoked).toEqual({ code: 0, stdout: `Revoked ${key.key.keyId}.\n`, stderr: '' });
    expect((await json(owner, ['org', 'keys', 'list', ...at])).keys).toEqual([]);
  }, 180_000);

  it('checks its arguments before any request (exit 2) and says what the API refused (exit 1)', async () => {
    const badRole = await owner.run(['org', 'members', 'add', 'x@example.com', '--role', 'king']);
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('Unknown role king: use owner, admin, developer, viewer.');
    const noSlug = await owner.run(['org', 'create', '--name', 'X']);
    expect(noSlug.code).toBe(2);
    expect(noSlug.stderr).toContain('Name its slug with --slug.');
    const taken = await owner.run(['org', 'create', '--slug', p.org.slug, '--name', 'Copy']);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('An organization with this slug exists.');
    const unknown = await owner.run(['org', 'invites', 'accept', 'inv_nothing']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Invite not found');
  });

  it('a new person in no organization logs in, creates the first one and works in it', async () => {
    const email = `cli-newcomer-${Date.now().toString(36)}@example.com`;
    const person = await ensureUser(email, 'Newcomer');
    const token = await p.sign({ sub: person.userId, email, name: 'Newcomer' });
    const newcomer = new Cli();
    const login = await newcomer.run(['login', '--url', p.baseUrl, '--token', token]);
    expect({ code: login.code, stderr: login.stderr }).toEqual({ code: 0, stderr: '' });
    expect(login.stdout).toContain('in no organization yet');
    const before = await newcomer.run(['projects', 'list']);
    expect(before.code).toBe(1);
    expect(before.stderr).toContain('You belong to no organization yet. Create one: platform org create');
    const first = `${slug}-first`;
    const created = await newcomer.run(['org', 'create', '--slug', first, '--name', 'First']);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`Your profile now uses ${first}.`);
    const projects = await newcomer.run(['projects', 'list', '--json']);
    expect({ code: projects.code, stderr: projects.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(projects.stdout)).toEqual([]);
  });
});
