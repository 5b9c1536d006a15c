import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { inviteRefKey } from '../../shared/kernel/identity/invites';
import { ensureUser } from '../../shared/kernel/identity/users';
import { db } from '../../shared/kernel/store/client';
import { getItem, TABLE } from '../../shared/kernel/store/table';
import { TestPlatform } from '../helpers/platform';
import { someId } from '../helpers/records';

/**
 * Beyond the spec: creating an organization, adding members, changing roles, removing members,
 * inviting by email and accepting, through the local gateway.
 */
let p: TestPlatform;
beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

let n = 0;
const unique = (base: string) => `${base}-${process.pid.toString(36)}-${Date.now().toString(36)}-${(n++).toString(36)}`;
const email = (base: string) => `${unique(base)}@example.com`;

/** A person with an account (a user record) and a token, member of nothing. */
async function stranger(name = 'Stranger') {
  const address = email('stranger');
  const user = await ensureUser(address, name);
  return { ...user, token: await p.sign({ sub: user.userId, email: address, name }) };
}

/** The mails in the local outbox to `to`. */
function mailsTo(to: string): string[] {
  const dir = process.env.OUTBOX_DIR as string;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .filter((text) => text.includes(to));
}

describe('POST /v1/orgs', () => {
  it('creates a customer organization with the caller as its owner', async () => {
    const me = await stranger('Founder');
    const slug = unique('acme');
    const res = await p.post('/v1/orgs', { slug, name: '  Acme Inc  ' }, { token: me.token });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      org: {
        orgId: expect.stringMatching(/^org_/),
        slug,
        name: 'Acme Inc',
        kind: 'customer',
        createdAt: expect.any(Number),
        version: 1,
      },
      member: { userId: me.userId, role: 'owner', email: me.email, name: 'Founder', joinedAt: expect.any(Number) },
    });
    const orgId = res.body.org.orgId;
    const mine = await p.get('/v1/me', { token: me.token });
    expect(mine.body.me.orgs).toEqual([expect.objectContaining({ orgId, slug, role: 'owner' })]);
    const members = await p.get(`/v1/orgs/${orgId}/members`, { token: me.token });
    expect(members.body.members).toEqual([expect.objectContaining({ userId: me.userId, role: 'owner' })]);
  });

  it('answers 409 for a slug that is taken', async () => {
    const me = await stranger();
    const res = await p.post('/v1/orgs', { slug: p.org.slug, name: 'Copy' }, { token: me.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'An organization with this slug exists.' });
  });

  it('creates once for a repeated Idempotency-Key', async () => {
    const me = await stranger();
    const body = { slug: unique('idem'), name: 'Once' };
    const headers = { 'idempotency-key': unique('k') };
    const first = await p.post('/v1/orgs', body, { token: me.token, headers });
    const again = await p.post('/v1/orgs', body, { token: me.token, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.org.orgId).toBe(first.body.org.orgId);
  });

  it.each([
    [{ slug: 'A', name: 'x' }, 'slug'],
    [{ slug: '-bad-', name: 'x' }, 'slug'],
    [{ slug: 'good-slug', name: '   ' }, 'name'],
    [{ slug: 'good-slug' }, 'name'],
  ])('refuses %j with 400 naming %s', async (body, path) => {
    const res = await p.post('/v1/orgs', body);
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it('is refused to a key with 403', async () => {
    const res = await p.post('/v1/orgs', { slug: unique('key'), name: 'Key' }, { token: await p.apiKey() });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Only people can create an organization.' });
  });

  it('answers 401 without a token', async () => {
    const res = await p.post('/v1/orgs', { slug: unique('anon'), name: 'Anon' }, { token: null });
    expect(res.status).toBe(401);
  });
});

describe('POST /v1/orgs/:orgId/members', () => {
  it('adds a person who has an account, with the role given', async () => {
    const { org, owner } = await p.newOrg();
    const someone = await stranger('Someone');
    const res = await p.post(
      `/v1/orgs/${org.orgId}/members`,
      { email: someone.email.toUpperCase(), role: 'developer' },
      { token: owner.token },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      member: {
        userId: someone.userId,
        role: 'developer',
        email: someone.email,
        name: 'Someone',
        joinedAt: expect.any(Number),
      },
    });
    const theirs = await p.get(`/v1/orgs/${org.orgId}`, { token: someone.token });
    expect(theirs.status).toBe(200);
  });

  it('answers 400 for an email without an account', async () => {
    const res = await p.post(`/v1/orgs/${p.org.orgId}/members`, { email: email('nobody'), role: 'viewer' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'No one has an account with this email. Invite them instead.' });
  });

  it('answers 409 for a member', async () => {
    const dev = await p.person('developer');
    const res = await p.post(`/v1/orgs/${p.org.orgId}/members`, { email: dev.email, role: 'viewer' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'This person is already a member.' });
  });

  it('lets only owners grant the owner role (403 to an admin)', async () => {
    const admin = await p.person('admin');
    const someone = await stranger();
    const res = await p.post(
      `/v1/orgs/${p.org.orgId}/members`,
      { email: someone.email, role: 'owner' },
      { token: admin.token },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Only owners can grant the owner role.' });
    const asAdmin = await p.post(
      `/v1/orgs/${p.org.orgId}/members`,
      { email: someone.email, role: 'admin' },
      { token: admin.token },
    );
    expect(asAdmin.status).toBe(201);
  });

  it('is refused to a developer with 403 Missing scope members:write', async () => {
    const dev = await p.person('developer');
    const res = await p.post(
      `/v1/orgs/${p.org.orgId}/members`,
      { email: email('x'), role: 'viewer' },
      { token: dev.token },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Missing scope members:write' });
  });

  it.each([
    [{ email: 'not-an-email', role: 'viewer' }, 'email'],
    [{ email: 'a@example.com', role: 'king' }, 'role'],
    [{ role: 'viewer' }, 'email'],
  ])('refuses %j with 400 naming %s', async (body, path) => {
    const res = await p.post(`/v1/orgs/${p.org.orgId}/members`, body);
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it("answers 404 Organization not found for another tenant's organization", async () => {
    const other = await p.newOrg();
    const res = await p.post(`/v1/orgs/${other.org.orgId}/members`, { email: email('x'), role: 'viewer' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });
});

describe('PATCH /v1/orgs/:orgId/members/:userId', () => {
  it("changes a member's role", async () => {
    const viewer = await p.person('viewer');
    const res = await p.patch(`/v1/orgs/${p.org.orgId}/members/${viewer.userId}`, { role: 'developer' });
    expect(res.status).toBe(200);
    expect(res.body.member).toMatchObject({ userId: viewer.userId, role: 'developer', email: viewer.email });
    const me = await p.get('/v1/me', { token: viewer.token });
    expect(me.body.me.orgs.find((o: { orgId: string }) => o.orgId === p.org.orgId).role).toBe('developer');
  });

  it("answers 409 when the last owner would be demoted, and lets it once there's another owner", async () => {
    const { org, owner } = await p.newOrg();
    const res = await p.patch(
      `/v1/orgs/${org.orgId}/members/${owner.userId}`,
      { role: 'admin' },
      { token: owner.token },
    );
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'An organization needs at least one owner. Make another member an owner first.',
    });
    const second = await p.person('admin', org.orgId);
    const promoted = await p.patch(
      `/v1/orgs/${org.orgId}/members/${second.userId}`,
      { role: 'owner' },
      { token: owner.token },
    );
    expect(promoted.body.member.role).toBe('owner');
    const demoted = await p.patch(
      `/v1/orgs/${org.orgId}/members/${owner.userId}`,
      { role: 'admin' },
      { token: owner.token },
    );
    expect(demoted.status).toBe(200);
    expect(demoted.body.member.role).toBe('admin');
  });

  it('keeps an owner when two owners demote each other at once', async () => {
    const { org, owner } = await p.newOrg();
    const second = await p.person('owner', org.orgId);
    const [a, b] = await Promise.all([
      p.patch(`/v1/orgs/${org.orgId}/members/${second.userId}`, { role: 'viewer' }, { token: owner.token }),
      p.patch(`/v1/orgs/${org.orgId}/members/${owner.userId}`, { role: 'viewer' }, { token: second.token }),
    ]);
    // One wins. The other is 409 when both passed their checks before either wrote (the last owner
    // is kept by the write's condition), or 403 when the winner's write landed before its checks
    // (it is no owner any more): which depends on the machine's timing, the outcome does not.
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const members = await p.get(`/v1/orgs/${org.orgId}/members`, {
      token: a.status === 200 ? owner.token : second.token,
    });
    expect(members.body.members.filter((m: { role: string }) => m.role === 'owner')).toHaveLength(1);
  });

  it("lets only owners change an owner's role (403 to an admin)", async () => {
    const admin = await p.person('admin');
    const res = await p.patch(
      `/v1/orgs/${p.org.orgId}/members/${p.owner.userId}`,
      { role: 'viewer' },
      { token: admin.token },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "Only owners can change or remove an owner's membership." });
    const viewer = await p.person('viewer');
    const grant = await p.patch(
      `/v1/orgs/${p.org.orgId}/members/${viewer.userId}`,
      { role: 'owner' },
      { token: admin.token },
    );
    expect(grant.status).toBe(403);
    expect(grant.body).toEqual({ error: 'Only owners can grant the owner role.' });
  });

  it('answers 404 Member not found for someone who is not a member', async () => {
    const res = await p.patch(`/v1/orgs/${p.org.orgId}/members/${someId('usr_')}`, { role: 'viewer' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Member not found' });
  });

  it('refuses an unknown role with 400', async () => {
    const res = await p.patch(`/v1/orgs/${p.org.orgId}/members/${p.owner.userId}`, { role: 'root' });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([expect.objectContaining({ path: 'role' })]);
  });

  it("answers 404 Organization not found for another tenant's organization", async () => {
    const other = await p.newOrg();
    const res = await p.patch(`/v1/orgs/${other.org.orgId}/members/${other.owner.userId}`, { role: 'viewer' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });
});

describe('DELETE /v1/orgs/:orgId/members/:userId', () => {
  it('removes a member: they lose access at once', async () => {
    const dev = await p.person('developer');
    const res = await p.delete(`/v1/orgs/${p.org.orgId}/members/${dev.userId}`);
    expect(res.status).toBe(204);
    expect((await p.get(`/v1/orgs/${p.org.orgId}`, { token: dev.token })).status).toBe(404);
  });

  it('answers 409 for the last owner', async () => {
    const { org, owner } = await p.newOrg();
    const res = await p.delete(`/v1/orgs/${org.orgId}/members/${owner.userId}`, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'An organization needs at least one owner. Make another member an owner first.',
    });
  });

  it('lets only owners remove an owner (403 to an admin)', async () => {
    const admin = await p.person('admin');
    const res = await p.delete(`/v1/orgs/${p.org.orgId}/members/${p.owner.userId}`, { token: admin.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "Only owners can change or remove an owner's membership." });
  });

  it('answers 404 Member not found for someone who is not a member', async () => {
    const res = await p.delete(`/v1/orgs/${p.org.orgId}/members/${someId('usr_')}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Member not found' });
  });

  it("answers 404 Organization not found for another tenant's organization", async () => {
    const other = await p.newOrg();
    const res = await p.delete(`/v1/orgs/${other.org.orgId}/members/${other.owner.userId}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });
});

describe('invites', () => {
  it('invite, list, mail, accept: the invitee becomes a member with the role', async () => {
    const { org, owner } = await p.newOrg();
    const address = email('invitee');
    const res = await p.post(
      `/v1/orgs/${org.orgId}/members/invites`,
      { email: address, role: 'developer' },
      { token: owner.token },
    );
    expect(res.status).toBe(201);
    const invite = res.body.invite;
    expect(invite).toEqual({
      inviteId: expect.stringMatching(/^inv_/),
      email: address,
      role: 'developer',
      expiresAt: expect.any(Number),
      createdAt: expect.any(Number),
    });
    expect(invite.expiresAt - invite.createdAt).toBe(7 * 24 * 3600_000);

    const listed = await p.get(`/v1/orgs/${org.orgId}/members`, { token: owner.token });
    expect(listed.body.invites).toEqual([invite]);

    const [mail] = mailsTo(address);
    expect(mail).toContain(`platform org invites accept ${invite.inviteId}`);
    expect(mail).toContain(org.name);

    // The invitee signs up (a new user) and sees the invite.
    const user = await ensureUser(address, 'Invitee');
    const token = await p.sign({ sub: user.userId, email: address, name: 'Invitee' });
    const mine = await p.get('/v1/me/invites', { token });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ invites: [{ ...invite, org: { orgId: org.orgId, slug: org.slug, name: org.name } }] });

    const accepted = await p.post(`/v1/me/invites/${invite.inviteId}/accept`, undefined, { token });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      org: expect.objectContaining({ orgId: org.orgId, slug: org.slug }),
      member: { userId: user.userId, role: 'developer', email: address, name: 'Invitee', joinedAt: expect.any(Number) },
    });
    expect((await p.get(`/v1/orgs/${org.orgId}/projects`, { token })).status).toBe(200);
    expect((await p.get('/v1/me/invites', { token })).body.invites).toEqual([]);
    const after = await p.get(`/v1/orgs/${org.orgId}/members`, { token: owner.token });
    expect(after.body.invites).toEqual([]);

    const again = await p.post(`/v1/me/invites/${invite.inviteId}/accept`, undefined, { token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'Invite not found' });
  });

  it('answers 409 for a second pending invite to the same address, and for a member', async () => {
    const address = email('twice');
    const first = await p.post(`/v1/orgs/${p.org.orgId}/members/invites`, { email: address, role: 'viewer' });
    expect(first.status).toBe(201);
    const second = await p.post(`/v1/orgs/${p.org.orgId}/members/invites`, { email: address, role: 'admin' });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ error: 'This email already has a pending invite.' });
    const dev = await p.person('developer');
    const member = await p.post(`/v1/orgs/${p.org.orgId}/members/invites`, { email: dev.email, role: 'admin' });
    expect(member.status).toBe(409);
    expect(member.body).toEqual({ error: 'This person is already a member.' });
  });

  it('lets only owners invite an owner (403 to an admin)', async () => {
    const admin = await p.person('admin');
    const res = await p.post(
      `/v1/orgs/${p.org.orgId}/members/invites`,
      { email: email('boss'), role: 'owner' },
      { token: admin.token },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Only owners can grant the owner role.' });
  });

  it('refuses a bad email with 400', async () => {
    const res = await p.post(`/v1/orgs/${p.org.orgId}/members/invites`, { email: 'nope', role: 'viewer' });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([expect.objectContaining({ path: 'email' })]);
  });

  it("answers 404 Organization not found for another tenant's organization", async () => {
    const other = await p.newOrg();
    const res = await p.post(`/v1/orgs/${other.org.orgId}/members/invites`, { email: email('x'), role: 'viewer' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });

  it('a withdrawn invite can no longer be accepted; the address can be invited again', async () => {
    const address = email('withdrawn');
    const made = await p.post(`/v1/orgs/${p.org.orgId}/members/invites`, { email: address, role: 'viewer' });
    const inviteId = made.body.invite.inviteId;
    const res = await p.delete(`/v1/orgs/${p.org.orgId}/members/invites/${inviteId}`);
    expect(res.status).toBe(204);
    const user = await ensureUser(address);
    const token = await p.sign({ sub: user.userId, email: address });
    const accept = await p.post(`/v1/me/invites/${inviteId}/accept`, undefined, { token });
    expect(accept.status).toBe(404);
    expect(accept.body).toEqual({ error: 'Invite not found' });
    const gone = await p.delete(`/v1/orgs/${p.org.orgId}/members/invites/${inviteId}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'Invite not found' });
    const again = await p.post(`/v1/orgs/${p.org.orgId}/members/invites`, { email: address, role: 'viewer' });
    expect(again.status).toBe(201);
  });

  it("answers 404 Organization not found when withdrawing in another tenant's organization", async () => {
    const other = await p.newOrg();
    const res = await p.delete(`/v1/orgs/${other.org.orgId}/members/invites/${someId('inv_')}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Organization not found' });
  });

  it('refuses an invite to another address with 403', async () => {
    const made = await p.post(`/v1/orgs/${p.org.orgId}/members/invites`, { email: email('meant'), role: 'viewer' });
    const other = await stranger();
    const res = await p.post(`/v1/me/invites/${made.body.invite.inviteId}/accept`, undefined, { token: other.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'This invite is for another email address. Sign in with that address to accept it.',
    });
  });

  it('refuses an expired invite with 409, and an address expired may be invited again', async () => {
    const address = email('late');
    const made = await p.post(`/v1/orgs/${p.org.orgId}/members/invites`, { email: address, role: 'viewer' });
    const inviteId = made.body.invite.inviteId;
    // Its reference and its address's claim, as 8 days later.
    const past = Date.now() - 1000;
    for (const key of [inviteRefKey(inviteId), { pk: `ORG#${p.org.orgId}`, sk: `INVITEEMAIL#${address}` }]) {
      await db.send(
        new UpdateCommand({
          TableName: TABLE(),
          Key: key,
          UpdateExpression: 'SET expiresAt = :past',
          ExpressionAttributeValues: { ':past': past },
        }),
      );
    }
    const user = await ensureUser(address);
    const token = await p.sign({ sub: user.userId, email: address });
    const res = await p.post(`/v1/me/invites/${inviteId}/accept`, undefined, { token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'This invite has expired. Ask an owner or admin of the organization for a new one.',
    });
    expect((await p.get('/v1/me/invites', { token })).body.invites).toEqual([]);
    const again = await p.post(`/v1/orgs/${p.org.orgId}/members/invites`, { email: address, role: 'viewer' });
    expect(again.status).toBe(201);
  });

  it('answers 409 to a member accepting', async () => {
    const dev = await p.person('developer');
    // An invite to a person who became a member meanwhile (added directly).
    const { org, owner } = await p.newOrg();
    const made = await p.post(
      `/v1/orgs/${org.orgId}/members/invites`,
      { email: dev.email, role: 'viewer' },
      { token: owner.token },
    );
    await p.post(`/v1/orgs/${org.orgId}/members`, { email: dev.email, role: 'admin' }, { token: owner.token });
    const res = await p.post(`/v1/me/invites/${made.body.invite.inviteId}/accept`, undefined, { token: dev.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'You are already a member of this organization.' });
  });

  it('answers 404 for an unknown invite, 403 to a key', async () => {
    const res = await p.post(`/v1/me/invites/${someId('inv_')}/accept`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Invite not found' });
    const key = await p.apiKey();
    const byKey = await p.post(`/v1/me/invites/${someId('inv_')}/accept`, undefined, { token: key });
    expect(byKey.status).toBe(403);
    expect(byKey.body).toEqual({ error: 'Only people can accept an invite.' });
    const list = await p.get('/v1/me/invites', { token: key });
    expect(list.status).toBe(403);
    expect(list.body).toEqual({ error: 'Only people can accept an invite.' });
  });

  it('deleting the organization removes its invites from the invitee', async () => {
    const { org, owner } = await p.newOrg();
    const address = email('orphan');
    const made = await p.post(
      `/v1/orgs/${org.orgId}/members/invites`,
      { email: address, role: 'viewer' },
      { token: owner.token },
    );
    const inviteId = made.body.invite.inviteId;
    expect(await getItem(inviteRefKey(inviteId), true)).toBeDefined();
    expect((await p.delete(`/v1/orgs/${org.orgId}`, { token: owner.token })).status).toBe(204);
    const user = await ensureUser(address);
    const token = await p.sign({ sub: user.userId, email: address });
    expect((await p.get('/v1/me/invites', { token })).body.invites).toEqual([]);
    expect(await getItem(inviteRefKey(inviteId), true)).toBeUndefined();
  });
});
