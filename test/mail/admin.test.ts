import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MAIL_MESSAGES } from '../../shared/domains/mail/records';
import { TEXT_MESSAGES } from '../../shared/kernel/ground/text';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { setLocalRecord } from '../../shared/ports/dns/local';
import { type MailWorld, mailboxFor, startMailWorld, unique } from './helpers';

/**
 * Mail administration (issue 17, Domains and Admin): domains with the records to publish, verified
 * by DNS lookups (`.test` at once), one organization per domain; mailboxes and aliases unique
 * platform-wide; membership decides who reaches a mailbox.
 */
let w: MailWorld;
beforeAll(async () => {
  w = await startMailWorld();
});
afterAll(async () => {
  await w?.close();
});

const base = () => `/v1/orgs/${w.p.org.orgId}/mail`;

describe('domains', () => {
  test('a .test domain verifies at once and lists its records; one organization holds a domain', async () => {
    const domain = `${unique('acme')}.test`;
    const res = await w.p.post(`${base()}/domains`, { domain: domain.toUpperCase() });
    expect(res.status).toBe(201);
    expect(res.body.domain).toMatchObject({ domain, status: 'verified', receiving: true, catchAll: null });
    const purposes = res.body.domain.records.map((r: { purpose: string }) => r.purpose);
    expect(purposes).toEqual(['verification', 'dkim', 'dkim', 'dkim', 'spf', 'dmarc', 'mx']);
    expect(res.body.domain.records[4]).toMatchObject({
      type: 'TXT',
      name: domain,
      value: 'v=spf1 include:amazonses.com ~all',
    });

    expect((await w.p.post(`${base()}/domains`, { domain })).body).toEqual({ error: MAIL_MESSAGES.domainExists });
    const other = await w.p.newOrg();
    const taken = await w.p.post(`/v1/orgs/${other.org.orgId}/mail/domains`, { domain }, { token: other.owner.token });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ error: MAIL_MESSAGES.domainTaken });

    const list = await w.p.get(`${base()}/domains`);
    expect(list.status).toBe(200);
    expect(list.body.domains.map((d: { domain: string }) => d.domain)).toContain(domain);
    expect((await w.p.post(`${base()}/domains`, { domain: 'not a domain' })).status).toBe(400);
  });

  test('another domain stays pending until its TXT record is published, then verifies', async () => {
    const domain = `${unique('corp')}.org`;
    const res = await w.p.post(`${base()}/domains`, { domain });
    expect(res.body.domain.status).toBe('pending');
    const txt = res.body.domain.records[0];
    expect(txt.name).toBe(`_platform-mail.${domain}`);

    const early = await w.p.post(`${base()}/domains/${domain}/verify`);
    expect(early.status).toBe(200);
    expect(early.body.domain).toMatchObject({ status: 'pending', verifiedAt: null });
    expect(early.body.domain.checkedAt).toEqual(expect.any(Number));

    await setLocalRecord(domain, { name: txt.name, type: 'TXT', value: txt.value });
    const late = await w.p.post(`${base()}/domains/${domain}/verify`);
    expect(late.body.domain.status).toBe('verified');
    expect(late.body.domain.records[0].found).toBe(true);

    expect((await w.p.post(`${base()}/domains/nope-${unique()}.org/verify`)).body).toEqual({
      error: MAIL_MESSAGES.domainNotFound,
    });
  });

  test('a domain still unproven 72 hours after it was added fails at its next check', async () => {
    const domain = `${unique('late')}.org`;
    await w.p.post(`${base()}/domains`, { domain });
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: { pk: `ORG#${w.p.org.orgId}`, sk: `MAILDOM#${domain}` },
        UpdateExpression: 'SET createdAt = :t',
        ExpressionAttributeValues: { ':t': Date.now() - 73 * 3_600_000 },
      }),
    );
    const res = await w.p.post(`${base()}/domains/${domain}/verify`);
    expect(res.body.domain).toMatchObject({ status: 'failed', verifiedAt: null });
    expect(res.body.domain.records[0].found).toBe(false);
  });

  test('an unproven claim blocks no one: the first to publish its TXT record holds the domain, the other claim fails', async () => {
    const domain = `${unique('victimcorp')}.com`;
    const squatter = await w.p.newOrg();
    const theirs = `/v1/orgs/${squatter.org.orgId}/mail`;
    const asSquatter = { token: squatter.owner.token };
    const squatted = await w.p.post(`${theirs}/domains`, { domain }, asSquatter);
    expect(squatted.status).toBe(201);
    expect(squatted.body.domain.status).toBe('pending');
    // Addresses are claimed platform-wide: an unproven claim takes none of them.
    const ceo = await w.p.post(`${theirs}/admin/mailboxes`, { address: `ceo@${domain}`, name: 'CEO' }, asSquatter);
    expect(ceo.status).toBe(409);
    expect(ceo.body).toEqual({ error: MAIL_MESSAGES.addressesNeedVerified(domain) });
    const own = `${unique('squat')}.test`;
    await w.p.post(`${theirs}/domains`, { domain: own }, asSquatter);
    const box = await w.p.post(`${theirs}/admin/mailboxes`, { address: `a@${own}`, name: 'A' }, asSquatter);
    expect(box.status).toBe(201);
    const aliasPath = `${theirs}/admin/mailboxes/${box.body.mailbox.mailboxId}/aliases`;
    const alias = await w.p.post(aliasPath, { address: `ceo@${domain}` }, asSquatter);
    expect(alias.status).toBe(409);
    expect(alias.body).toEqual({ error: MAIL_MESSAGES.addressesNeedVerified(domain) });

    // The real owner adds it too (no 409), publishes its TXT record and verifies.
    const added = await w.p.post(`${base()}/domains`, { domain });
    expect(added.status).toBe(201);
    const txt = added.body.domain.records[0];
    await setLocalRecord(domain, { name: txt.name, type: 'TXT', value: txt.value });
    const verified = await w.p.post(`${base()}/domains/${domain}/verify`);
    expect(verified.body.domain).toMatchObject({ status: 'verified', verifiedAt: expect.any(Number) });
    expect(verified.body.domain).not.toHaveProperty('message');
    const owners = await w.p.post(`${base()}/admin/mailboxes`, { address: `ceo@${domain}`, name: 'CEO' });
    expect(owners.status).toBe(201);

    // The squatter's claim failed, saying why; its verify says the same.
    const why = `${domain} was verified by another organization: its DNS records prove they own it.`;
    const listed = await w.p.get(`${theirs}/domains`, asSquatter);
    expect(listed.body.domains).toContainEqual(expect.objectContaining({ domain, status: 'failed', message: why }));
    const again = await w.p.post(`${theirs}/domains/${domain}/verify`, undefined, asSquatter);
    expect(again.status).toBe(200);
    expect(again.body.domain).toMatchObject({ status: 'failed', message: why });

    // Verified now: a new claim is refused; the squatter's delete leaves the owner's claim alone.
    const late = await w.p.newOrg();
    const refused = await w.p.post(`/v1/orgs/${late.org.orgId}/mail/domains`, { domain }, { token: late.owner.token });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: MAIL_MESSAGES.domainTaken });
    expect((await w.p.delete(`${theirs}/domains/${domain}`, asSquatter)).status).toBe(204);
    const still = await w.p.post(`/v1/orgs/${late.org.orgId}/mail/domains`, { domain }, { token: late.owner.token });
    expect(still.body).toEqual({ error: MAIL_MESSAGES.domainTaken });
  });

  test.each([['co.uk'], ['github.io']])('400 for the public suffix %s', async (domain) => {
    const res = await w.p.post(`${base()}/domains`, { domain });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: `${domain} is a public suffix, shared by many owners: add a name registered under it.`,
    });
  });

  test('PATCH sets receiving and a catch-all mailbox of the organization; DELETE keeps its mailboxes', async () => {
    const box = await mailboxFor(w.p, [w.p.owner.userId]);
    const path = `${base()}/domains/${box.domain}`;
    const patched = await w.p.patch(path, { receiving: false, catchAll: box.mailboxId });
    expect(patched.status).toBe(200);
    expect(patched.body.domain).toMatchObject({ receiving: false, catchAll: box.mailboxId, version: 2 });
    expect((await w.p.patch(path, { catchAll: 'mbx_nope' })).body).toEqual({ error: MAIL_MESSAGES.catchAllNotFound });
    const stale = await w.p.patch(path, { receiving: true, ifVersion: 1 });
    expect(stale.status).toBe(409);
    expect((await w.p.patch(`${base()}/domains/gone-${unique()}.test`, { receiving: true })).status).toBe(404);

    expect((await w.p.delete(path)).status).toBe(204);
    expect((await w.p.delete(path)).body).toEqual({ error: MAIL_MESSAGES.domainNotFound });
    const boxes = await w.p.get(`${base()}/admin/mailboxes`);
    expect(boxes.body.mailboxes.map((m: { mailboxId: string }) => m.mailboxId)).toContain(box.mailboxId);
  });
});

describe('mailboxes and aliases', () => {
  test('a mailbox on an organization domain, members by id or email, unique addresses', async () => {
    const dev = await w.p.person('developer');
    const domain = `${unique('team')}.test`;
    await w.p.post(`${base()}/domains`, { domain });
    const address = `sales-${unique()}@${domain}`;
    const res = await w.p.post(`${base()}/admin/mailboxes`, {
      address: address.toUpperCase(),
      name: ' Sales ',
      members: [w.p.owner.userId, dev.email],
      kind: 'shared',
    });
    expect(res.status).toBe(201);
    expect(res.body.mailbox).toMatchObject({
      address,
      name: 'Sales',
      kind: 'shared',
      members: [w.p.owner.userId, dev.userId],
      aliases: [],
      version: 1,
    });
    expect(res.body.mailbox.mailboxId).toMatch(/^mbx_/);

    const again = await w.p.post(`${base()}/admin/mailboxes`, { address, name: 'Again' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: MAIL_MESSAGES.addressTaken });
    const outside = await w.p.post(`${base()}/admin/mailboxes`, { address: `x@${unique()}.test`, name: 'X' });
    expect(outside.body).toEqual({ error: MAIL_MESSAGES.notOrgDomain });
    const stranger = await w.p.post(`${base()}/admin/mailboxes`, {
      address: `y-${unique()}@${domain}`,
      name: 'Y',
      members: ['nobody@example.com'],
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body).toEqual({ error: MAIL_MESSAGES.memberNotFound('nobody@example.com') });

    const members = await w.p.get(`${base()}/members`);
    expect(members.status).toBe(200);
    const devRow = members.body.members.find((m: { userId: string }) => m.userId === dev.userId);
    expect(devRow.mailboxes).toEqual([{ mailboxId: res.body.mailbox.mailboxId, address }]);
  });

  test('PATCH renames and replaces members with ifVersion; aliases are unique and removable', async () => {
    const box = await mailboxFor(w.p, [w.p.owner.userId]);
    const path = `${base()}/admin/mailboxes/${box.mailboxId}`;
    const viewer = await w.p.person('viewer');
    const renamed = await w.p.patch(path, { name: 'Renamed', members: [viewer.userId], ifVersion: 1 });
    expect(renamed.status).toBe(200);
    expect(renamed.body.mailbox).toMatchObject({ name: 'Renamed', members: [viewer.userId], version: 2 });
    const stale = await w.p.patch(path, { name: 'Stale', ifVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: MAIL_MESSAGES.stale });
    expect((await w.p.patch(`${base()}/admin/mailboxes/mbx_nope`, { name: 'N' })).body).toEqual({
      error: MAIL_MESSAGES.mailboxNotFound,
    });
    // The name is the From display name of the mailbox's mail: one line, as the settings route holds it.
    for (const name of ['Sales\r\nBcc: all@outside.example', 'Sales\nTeam']) {
      const broken = await w.p.patch(path, { name });
      const settings = await w.p.patch(`/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${box.mailboxId}/settings`, {
        displayName: name,
      });
      expect(settings.body).toEqual({
        error: 'Invalid request',
        issues: [{ path: 'displayName', message: TEXT_MESSAGES.oneLine }],
      });
      expect(broken.status).toBe(400);
      expect(broken.body).toEqual({
        error: 'Invalid request',
        issues: [{ path: 'name', message: TEXT_MESSAGES.oneLine }],
      });
      expect(
        (await w.p.post(`${base()}/admin/mailboxes`, { address: `nb-${unique()}@${box.domain}`, name })).status,
      ).toBe(400);
    }
    const unknownMember = await w.p.patch(path, { members: ['usr_nobody'] });
    expect(unknownMember.body).toEqual({ error: MAIL_MESSAGES.memberNotFound('usr_nobody') });

    const alias = `hello-${unique()}@${box.domain}`;
    const added = await w.p.post(`${path}/aliases`, { address: alias });
    expect(added.status).toBe(201);
    expect(added.body.mailbox.aliases).toEqual([alias]);
    expect((await w.p.post(`${path}/aliases`, { address: box.address })).body).toEqual({
      error: MAIL_MESSAGES.addressTaken,
    });
    expect((await w.p.post(`${path}/aliases`, { address: `a@${unique()}.test` })).body).toEqual({
      error: MAIL_MESSAGES.notOrgDomain,
    });
    expect(
      (await w.p.post(`${base()}/admin/mailboxes/mbx_nope/aliases`, { address: `b-${unique()}@${box.domain}` })).status,
    ).toBe(404);

    expect((await w.p.delete(`${base()}/admin/aliases/${alias}`)).status).toBe(204);
    expect((await w.p.delete(`${base()}/admin/aliases/${alias}`)).body).toEqual({ error: MAIL_MESSAGES.aliasNotFound });
    // A mailbox's own address is not an alias.
    expect((await w.p.delete(`${base()}/admin/aliases/${box.address}`)).status).toBe(404);
    const list = await w.p.get(`${base()}/admin/mailboxes`);
    expect(list.body.mailboxes.find((m: { mailboxId: string }) => m.mailboxId === box.mailboxId).aliases).toEqual([]);
  });

  test('DELETE removes the mailbox and frees its addresses; a second DELETE is 404', async () => {
    const box = await mailboxFor(w.p, [w.p.owner.userId]);
    const alias = `old-${unique()}@${box.domain}`;
    await w.p.post(`${base()}/admin/mailboxes/${box.mailboxId}/aliases`, { address: alias });
    expect((await w.p.delete(`${base()}/admin/mailboxes/${box.mailboxId}`)).status).toBe(204);
    expect((await w.p.delete(`${base()}/admin/mailboxes/${box.mailboxId}`)).body).toEqual({
      error: MAIL_MESSAGES.mailboxNotFound,
    });
    expect((await w.p.get(`${base()}/mailboxes/${box.mailboxId}/limits`)).status).toBe(404);
    const reused = await w.p.post(`${base()}/admin/mailboxes`, { address: alias, name: 'Reused' });
    expect(reused.status).toBe(201);
  });
});

describe('who reaches a mailbox', () => {
  test("members see their mailboxes and limits; others, keys and unknown mailboxes don't", async () => {
    const member = await w.p.person('viewer');
    const outsider = await w.p.person('developer');
    const box = await mailboxFor(w.p, [member.userId]);
    const mine = await w.p.get(`${base()}/mailboxes`, { token: member.token });
    expect(mine.status).toBe(200);
    expect(mine.body.mailboxes).toEqual([
      expect.objectContaining({ mailboxId: box.mailboxId, address: box.address, unread: 0 }),
    ]);
    expect((await w.p.get(`${base()}/mailboxes`, { token: outsider.token })).body.mailboxes).toEqual([]);

    const limits = await w.p.get(`${base()}/mailboxes/${box.mailboxId}/limits`, { token: member.token });
    expect(limits.status).toBe(200);
    expect(limits.body.limits).toMatchObject({
      maxMessageBytes: 25 * 1024 * 1024,
      maxRecipients: 100,
      sentToday: 0,
    });
    expect(limits.body.limits.resetsAt % 86_400_000).toBe(0);

    const refused = await w.p.get(`${base()}/mailboxes/${box.mailboxId}/limits`, { token: outsider.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: MAIL_MESSAGES.membersOnly });
    const key = await w.p.apiKey();
    expect((await w.p.get(`${base()}/mailboxes/${box.mailboxId}/limits`, { token: key })).body).toEqual({
      error: MAIL_MESSAGES.membersOnly,
    });
    expect((await w.p.get(`${base()}/mailboxes`, { token: key })).body).toEqual({ error: MAIL_MESSAGES.membersOnly });
    expect((await w.p.get(`${base()}/mailboxes/mbx_nope/limits`, { token: member.token })).body).toEqual({
      error: MAIL_MESSAGES.mailboxNotFound,
    });
    // Administration is owners', admins' and org:write keys'.
    expect((await w.p.get(`${base()}/admin/mailboxes`, { token: outsider.token })).status).toBe(403);
    expect((await w.p.get(`${base()}/admin/mailboxes`, { token: key })).status).toBe(200);
  });

  test('usage per mailbox', async () => {
    const box = await mailboxFor(w.p, [w.p.owner.userId]);
    const res = await w.p.get(`${base()}/usage`);
    expect(res.status).toBe(200);
    expect(res.body.mailboxes.find((m: { mailboxId: string }) => m.mailboxId === box.mailboxId)).toEqual({
      mailboxId: box.mailboxId,
      address: box.address,
      bytes: 0,
      messages: 0,
      sentThisMonth: 0,
      receivedThisMonth: 0,
      bouncesThisMonth: 0,
      complaintsThisMonth: 0,
      sentToday: 0,
      dailyQuota: 500,
    });
  });
});
