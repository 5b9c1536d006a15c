import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { TestPlatform } from '../helpers/platform';
import { mailboxFor } from '../mail/helpers';
import { createProject } from '../projects/fixtures';

/**
 * Notification protocols (spec part B, "Notifications and protocols" and "Events"): templates,
 * create from a template or from rules with every limit of the rule table, replace, delete with
 * the attachments, attach and detach with the checks of each resource type.
 */
let p: TestPlatform;
const base = () => `/v1/orgs/${p.org.orgId}/notify/protocols`;
const rule = (extra: Record<string, unknown> = {}) => ({
  events: ['deployment.failed'],
  steps: [{ afterMinutes: 0, channels: ['inapp'] }],
  ...extra,
});

beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

describe('templates', () => {
  it('lists the six named templates with their rules, to any token of the organization', async () => {
    const viewer = await p.person('viewer');
    const res = await p.get(`${base()}/templates`, { token: viewer.token });
    expect(res.status).toBe(200);
    expect(res.body.templates.map((t: { id: string }) => t.id)).toEqual([
      'production-on-call',
      'meeting-guard',
      'invitation-chaser',
      'vip-mail',
      'service-desk-sla',
      'agent-jobs',
    ]);
    const onCall = res.body.templates[0];
    expect(onCall.rules[0]).toMatchObject({
      steps: [
        { afterMinutes: 0, channels: ['inapp', 'email'] },
        { afterMinutes: 5, channels: ['sms'] },
        { afterMinutes: 15, channels: ['voice'] },
      ],
      overrideQuietHours: true,
    });
  });
});

describe('create, read, replace, delete', () => {
  it('copies a template; 400 for an unknown one', async () => {
    const made = await p.post(base(), { template: 'production-on-call' });
    expect(made.status).toBe(201);
    expect(made.body.protocol).toMatchObject({
      protocolId: expect.stringMatching(/^npr_/),
      orgId: p.org.orgId,
      name: 'Production on-call',
      enabled: true,
      createdBy: p.owner.userId,
      attachments: [],
    });
    const unknown = await p.post(base(), { template: 'pager-party' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'Unknown template.' });
  });

  it('creates from rules (name trimmed, enabled by default), lists and reads it', async () => {
    const made = await p.post(base(), { name: '  Deploys  ', description: 'd', rules: [rule({ beforeEvent: false })] });
    expect(made.status).toBe(201);
    const { protocol } = made.body;
    expect(protocol).toMatchObject({ name: 'Deploys', description: 'd', enabled: true, version: 1 });
    const list = await p.get(base());
    expect(list.body.protocols.map((x: { protocolId: string }) => x.protocolId)).toContain(protocol.protocolId);
    const got = await p.get(`${base()}/${protocol.protocolId}`);
    expect(got.body.protocol).toEqual(protocol);
    expect((await p.get(`${base()}/npr_unknown`)).body).toEqual({ error: 'Protocol not found' });
    expect((await p.get(`${base()}/npr_unknown`)).status).toBe(404);
  });

  it.each([
    ['no rules', { name: 'x', rules: [] }],
    ['21 rules', { name: 'x', rules: Array.from({ length: 21 }, () => rule()) }],
    ['an unknown event kind', { name: 'x', rules: [rule({ events: ['deploy.exploded'] })] }],
    ['no events', { name: 'x', rules: [rule({ events: [] })] }],
    [
      '7 steps',
      {
        name: 'x',
        rules: [rule({ steps: Array.from({ length: 7 }, () => ({ afterMinutes: 0, channels: ['inapp'] })) })],
      },
    ],
    [
      'afterMinutes past a week',
      { name: 'x', rules: [rule({ steps: [{ afterMinutes: 10_081, channels: ['inapp'] }] })] },
    ],
    ['a negative afterMinutes', { name: 'x', rules: [rule({ steps: [{ afterMinutes: -1, channels: ['inapp'] }] })] }],
    ['a step without channels', { name: 'x', rules: [rule({ steps: [{ afterMinutes: 0, channels: [] }] })] }],
    ['an unknown channel', { name: 'x', rules: [rule({ steps: [{ afterMinutes: 0, channels: ['pigeon'] }] })] }],
    [
      '21 match values',
      { name: 'x', rules: [rule({ match: { target: Array.from({ length: 21 }, (_, i) => `v${i}`) } })] },
    ],
    ['a match value past 200 characters', { name: 'x', rules: [rule({ match: { target: ['x'.repeat(201)] } })] }],
    ['51 user ids', { name: 'x', rules: [rule({ userIds: Array.from({ length: 51 }, (_, i) => `usr_${i}`) })] }],
    ['an unknown role', { name: 'x', rules: [rule({ roles: ['janitor'] })] }],
    ['an empty name', { name: '   ', rules: [rule()] }],
    ['a name past 80 characters', { name: 'n'.repeat(81), rules: [rule()] }],
    ['a description past 300 characters', { name: 'x', description: 'd'.repeat(301), rules: [rule()] }],
  ])('refuses %s with 400', async (_what, body) => {
    const res = await p.post(base(), body);
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });

  it('replaces everything but the attachments; ifVersion stale → 409; 404', async () => {
    const { protocol } = (await p.post(base(), { name: 'Old', rules: [rule()] })).body;
    const project = await createProject(p);
    expect(
      (await p.post(`${base()}/${protocol.protocolId}/attachments`, { type: 'project', id: project.projectId })).status,
    ).toBe(201);
    const replaced = await p.put(`${base()}/${protocol.protocolId}`, {
      name: 'New',
      enabled: false,
      rules: [rule({ events: ['deployment.ready'] })],
      ifVersion: 2,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.protocol).toMatchObject({
      name: 'New',
      enabled: false,
      version: 3,
      rules: [{ events: ['deployment.ready'] }],
      attachments: [{ resourceType: 'project', resourceId: project.projectId }],
    });
    expect(replaced.body.protocol.description).toBeUndefined();
    const stale = await p.put(`${base()}/${protocol.protocolId}`, { name: 'Stale', rules: [rule()], ifVersion: 2 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: 'The protocol changed. Reload and try again.' });
    const missing = await p.put(`${base()}/npr_nothing`, { name: 'x', rules: [rule()] });
    expect(missing.status).toBe(404);
  });

  it('deletes a protocol with its attachments; then 404', async () => {
    const { protocol } = (await p.post(base(), { name: 'Gone', rules: [rule()] })).body;
    await p.post(`${base()}/${protocol.protocolId}/attachments`, { type: 'org', id: p.org.orgId });
    const attached = { pk: `ORG#${p.org.orgId}`, sk: `NOTIFYATT#org#${p.org.orgId}#${protocol.protocolId}` };
    expect((await db.send(new GetCommand({ TableName: TABLE(), Key: attached }))).Item).toBeDefined();
    expect((await p.delete(`${base()}/${protocol.protocolId}`)).status).toBe(204);
    // The attachment's own item (what events look protocols up by) went with it.
    expect((await db.send(new GetCommand({ TableName: TABLE(), Key: attached }))).Item).toBeUndefined();
    expect((await p.get(`${base()}/${protocol.protocolId}`)).status).toBe(404);
    expect((await p.delete(`${base()}/${protocol.protocolId}`)).status).toBe(404);
  });
});

describe('attachments', () => {
  /** A space, a mailbox and a calendar of its own (besides the mailbox's default one) in the test's organization. */
  async function resources() {
    const space = await p.post(`/v1/orgs/${p.org.orgId}/issues/spaces`, {
      key: `N${Date.now().toString(36).slice(-6).toUpperCase()}`,
      name: 'Notify',
      template: 'basic',
    });
    expect(space.status).toBe(201);
    const { mailboxId } = await mailboxFor(p, [p.owner.userId]);
    const calendar = await p.post(`/v1/orgs/${p.org.orgId}/mail/mailboxes/${mailboxId}/calendars`, { name: 'On call' });
    expect(calendar.status).toBe(201);
    return {
      spaceId: space.body.space.spaceId as string,
      mailboxId,
      calendarId: calendar.body.calendar.calendarId as string,
      defaultCalendarId: `cal_${mailboxId.slice(4)}`,
    };
  }

  it('attaches the org and resources of it that exist; checks what each names', async () => {
    const { protocol } = (await p.post(base(), { name: 'Attach', rules: [rule()] })).body;
    const at = `${base()}/${protocol.protocolId}/attachments`;
    const project = await createProject(p);
    const own = await resources();
    expect((await p.post(at, { type: 'org', id: p.org.orgId, label: 'Everything' })).status).toBe(201);
    const ok = await p.post(at, { type: 'project', id: project.projectId });
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ ok: true });
    for (const [type, id] of [
      ['space', own.spaceId],
      ['mailbox', own.mailboxId],
      ['calendar', own.calendarId],
      ['calendar', own.defaultCalendarId],
    ]) {
      const res = await p.post(at, { type, id });
      expect([type, id, res.status]).toEqual([type, id, 201]);
    }
    // Again: one attachment, its label updated.
    expect((await p.post(at, { type: 'space', id: own.spaceId, label: 'Support' })).status).toBe(201);
    const got = (await p.get(`${base()}/${protocol.protocolId}`)).body.protocol;
    expect(got.attachments).toEqual([
      { resourceType: 'org', resourceId: p.org.orgId, resourceLabel: 'Everything' },
      { resourceType: 'project', resourceId: project.projectId },
      { resourceType: 'mailbox', resourceId: own.mailboxId },
      { resourceType: 'calendar', resourceId: own.calendarId },
      { resourceType: 'calendar', resourceId: own.defaultCalendarId },
      { resourceType: 'space', resourceId: own.spaceId, resourceLabel: 'Support' },
    ]);

    const otherOrg = await p.post(at, { type: 'org', id: 'org_someone_else' });
    expect(otherOrg.status).toBe(400);
    expect(otherOrg.body).toEqual({ error: 'An org attachment names this organization.' });
    const wrongPrefix = await p.post(at, { type: 'mailbox', id: own.calendarId });
    expect(wrongPrefix.status).toBe(400);
    expect(wrongPrefix.body).toEqual({ error: 'The id does not name a resource of this type.' });
    expect((await p.post(at, { type: 'widget', id: 'x' })).status).toBe(400);
    // Missing here, or another organization's.
    const other = await p.newOrg();
    const theirs = await mailboxFor(p, [other.owner.userId], other.org.orgId, other.owner.token);
    for (const [type, id, error] of [
      ['project', 'prj_missing', 'Project not found'],
      ['agent', 'dev_missing', 'Device not found'],
      ['space', 'spc_missing', 'Space not found'],
      ['mailbox', 'mbx_missing', 'Mailbox not found'],
      ['mailbox', theirs.mailboxId, 'Mailbox not found'],
      ['calendar', 'cal_missing', 'Calendar not found'],
      ['calendar', `cal_${theirs.mailboxId.slice(4)}`, 'Calendar not found'],
    ]) {
      const res = await p.post(at, { type, id });
      expect([type, id, res.status, res.body]).toEqual([type, id, 404, { error }]);
    }
    expect((await p.post(`${base()}/npr_missing/attachments`, { type: 'org', id: p.org.orgId })).status).toBe(404);
  });

  it('detaches; 400 Unknown resource type.; 404 when not attached', async () => {
    const { protocol } = (await p.post(base(), { name: 'Detach', rules: [rule()] })).body;
    const at = `${base()}/${protocol.protocolId}/attachments`;
    expect((await p.post(at, { type: 'org', id: p.org.orgId })).status).toBe(201);
    const unknown = await p.delete(`${at}/widget/${p.org.orgId}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'Unknown resource type.' });
    expect((await p.delete(`${at}/org/${p.org.orgId}`)).status).toBe(204);
    const again = await p.delete(`${at}/org/${p.org.orgId}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'Attachment not found' });
    expect((await p.get(`${base()}/${protocol.protocolId}`)).body.protocol.attachments).toEqual([]);
    const missing = await p.delete(`${base()}/npr_missing/attachments/org/${p.org.orgId}`);
    expect([missing.status, missing.body]).toEqual([404, { error: 'Protocol not found' }]);
  });

  it('100 attachments at most; parallel changes of one protocol lose none: each is kept or 409', async () => {
    const { protocol } = (await p.post(base(), { name: 'Full', rules: [rule()] })).body;
    const at = `${base()}/${protocol.protocolId}/attachments`;
    // 100 held already (written to the record: the check counts the protocol's list).
    const hundred = Array.from({ length: 100 }, (_, i) => ({ resourceType: 'space', resourceId: `spc_seed${i}` }));
    await db.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: { pk: `ORG#${p.org.orgId}`, sk: `NOTIFYPROTO#${protocol.protocolId}` },
        UpdateExpression: 'SET attachments = :a',
        ExpressionAttributeValues: { ':a': hundred },
      }),
    );
    const over = await p.post(at, { type: 'org', id: p.org.orgId });
    expect([over.status, over.body]).toEqual([400, { error: 'A protocol can have up to 100 attachments.' }]);

    // Five different resources at once: each one answered 201 is kept (no lost update), the others are 409.
    const { protocol: busy } = (await p.post(base(), { name: 'Busy', rules: [rule()] })).body;
    const own = await resources();
    const targets = [
      { type: 'org', id: p.org.orgId },
      { type: 'space', id: own.spaceId },
      { type: 'mailbox', id: own.mailboxId },
      { type: 'calendar', id: own.calendarId },
      { type: 'calendar', id: own.defaultCalendarId },
    ];
    const answers = await Promise.all(targets.map((t) => p.post(`${base()}/${busy.protocolId}/attachments`, t)));
    expect(answers.map((a) => a.status)).toContain(201);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect([a.status, a.body]).toEqual([409, { error: 'The protocol changed. Reload and try again.' }]);
    }
    const kept = (await p.get(`${base()}/${busy.protocolId}`)).body.protocol.attachments as {
      resourceType: string;
      resourceId: string;
    }[];
    expect(kept.map((a) => `${a.resourceType}:${a.resourceId}`).sort()).toEqual(
      targets
        .filter((_, i) => answers[i]?.status === 201)
        .map((t) => `${t.type}:${t.id}`)
        .sort(),
    );
  });
});

describe('limits', () => {
  it('holds 50 protocols per organization (the 51st is 400)', async () => {
    const { org, owner } = await p.newOrg();
    const at = `/v1/orgs/${org.orgId}/notify/protocols`;
    for (let i = 0; i < 50; i++) {
      expect((await p.post(at, { name: `P${i}`, rules: [rule()] }, { token: owner.token })).status).toBe(201);
    }
    const over = await p.post(at, { name: 'One more', rules: [rule()] }, { token: owner.token });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: 'An organization can have up to 50 protocols.' });
  });
});
