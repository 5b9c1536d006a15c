import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { TestPlatform } from '../helpers/platform';

/**
 * Connectors as records: create with the spec's checks (credentials for `bearer`/`header`, a valid
 * header name, 50 per organization, one slug by transaction), secrets encrypted and never answered,
 * PATCH's two 400s, delete, and the guard on the URL when it is saved.
 */
let p: TestPlatform;
const base = () => `/v1/orgs/${p.org.orgId}/connectors`;
/** A public address: saved without a DNS answer, never called by these tests. */
const URL_ = 'https://93.184.215.14/mcp';

beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

let n = 0;
const slug = () => `c${Date.now().toString(36)}${(n++).toString(36)}`;

const rawRecord = async (orgId: string, connectorId: string) =>
  (await db.send(new GetCommand({ TableName: TABLE(), Key: { pk: `ORG#${orgId}`, sk: `CON#${connectorId}` } }))).Item;

describe('create', () => {
  it('registers a server with defaults; the credential is encrypted and never shown', async () => {
    const s = slug();
    const made = await p.post(base(), { name: '  Docs  ', slug: s, url: URL_, authType: 'bearer', secret: 'tok-123' });
    expect(made.status).toBe(201);
    expect(made.body.connector).toEqual({
      connectorId: expect.stringMatching(/^con_/),
      orgId: p.org.orgId,
      name: 'Docs',
      slug: s,
      url: URL_,
      transport: 'http',
      authType: 'bearer',
      enabled: true,
      status: 'unknown',
      createdBy: p.owner.userId,
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
      hasSecret: true,
      toolCount: 0,
      omittedTools: 0,
    });
    const id = made.body.connector.connectorId;
    const stored = await rawRecord(p.org.orgId, id);
    expect(stored?.secret).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain('tok-123');
    const got = await p.get(`${base()}/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ connector: made.body.connector, tools: [] });
    expect(got.text).not.toContain('tok-123');
    const listed = await p.get(base());
    expect(listed.body.connectors).toContainEqual(made.body.connector);
  });

  it('header auth: the secret and a valid, unreserved header name; oauth shows its sign-in state', async () => {
    const header = await p.post(base(), {
      name: 'Hdr',
      slug: slug(),
      url: URL_,
      authType: 'header',
      headerName: ' X-Api-Key ',
      secret: 'k',
      transport: 'sse',
    });
    expect(header.status).toBe(201);
    expect(header.body.connector).toMatchObject({ headerName: 'X-Api-Key', transport: 'sse', hasSecret: true });
    const oauth = await p.post(base(), { name: 'O', slug: slug(), url: URL_, authType: 'oauth' });
    expect(oauth.body.connector).toMatchObject({
      authType: 'oauth',
      hasSecret: false,
      oauth: { connected: false, server: null, registered: null },
    });
    const preRegistered = await p.post(base(), {
      name: 'O2',
      slug: slug(),
      url: URL_,
      authType: 'oauth',
      oauthClientId: 'client-1',
      oauthClientSecret: 'shh',
    });
    expect(preRegistered.body.connector).toMatchObject({
      hasSecret: true,
      oauth: { connected: false, server: null, registered: false },
    });
    expect(preRegistered.text).not.toContain('shh');
  });

  it.each([
    [{ authType: 'bearer' }, 'Enter a secret: bearer and header authentication send one.'],
    [{ authType: 'header', secret: 's' }, 'Enter a header name: header authentication sends the secret in it.'],
    [{ authType: 'header', secret: 's', headerName: 'Bad Name' }, expect.stringContaining('Enter a valid header name')],
    [{ authType: 'header', secret: 's', headerName: 'Mcp-Session-Id' }, expect.stringContaining('valid header name')],
    [{ authType: 'header', secret: 's', headerName: 'content-length' }, expect.stringContaining('valid header name')],
    [{ authType: 'none', secret: 's' }, "This connector doesn't use a credential."],
    [{ authType: 'oauth', secret: 's' }, "This connector doesn't use a credential."],
    [{ authType: 'bearer', secret: 's', headerName: 'X-A' }, 'headerName is only for header authentication.'],
    [{ authType: 'none', oauthClientId: 'c' }, 'oauthClientId and oauthClientSecret are only for OAuth.'],
    [{ authType: 'oauth', oauthClientSecret: 'c' }, 'oauthClientSecret needs oauthClientId.'],
  ])('refuses %j with 400', async (fields, error) => {
    const res = await p.post(base(), { name: 'X', slug: slug(), url: URL_, ...fields });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(error);
  });

  it('validates fields: name, slug, url length, printable secrets', async () => {
    const cases = [
      { name: '   ', slug: slug(), url: URL_ },
      { name: 'x'.repeat(65), slug: slug(), url: URL_ },
      { name: 'X', slug: '1abc', url: URL_ },
      { name: 'X', slug: 'abc-', url: URL_ },
      { name: 'X', slug: 'Abc', url: URL_ },
      { name: 'X', slug: 'a'.repeat(25), url: URL_ },
      { name: 'X', slug: slug(), url: '' },
      { name: 'X', slug: slug(), url: `https://93.184.215.14/${'a'.repeat(2048)}` },
      { name: 'X', slug: slug(), url: URL_, authType: 'bearer', secret: 'tab\there' },
      { name: 'X', slug: slug(), url: URL_, authType: 'bearer', secret: 'x'.repeat(4097) },
      { name: 'X', slug: slug(), url: URL_, authType: 'magic' },
      { name: 'X', slug: slug(), url: URL_, transport: 'ws' },
      { name: 'X', slug: slug(), url: URL_, authType: 'oauth', oauthClientId: 'x'.repeat(513) },
    ];
    for (const body of cases) {
      const res = await p.post(base(), body);
      expect([JSON.stringify(body).slice(0, 80), res.status, res.body.error]).toEqual([
        JSON.stringify(body).slice(0, 80),
        400,
        'Invalid request',
      ]);
    }
  });

  it('the URL is checked when saved: public https only (no loopback without npm start)', async () => {
    for (const [url, reason] of [
      ['http://93.184.215.14/mcp', 'url must use https.'],
      ['https://localhost/mcp', "url can't be reached from the platform: it names this machine."],
      ['http://127.0.0.1:3000/mcp', 'url must use https.'],
      ['https://10.0.0.5/mcp', "url can't be reached from the platform: it is not a public address."],
      ['https://169.254.169.254/latest', "url can't be reached from the platform: it is not a public address."],
      ['https://user:pw@93.184.215.14/', 'url must not hold a user name or password.'],
      ['not a url', 'url is not a valid URL.'],
    ]) {
      const res = await p.post(base(), { name: 'X', slug: slug(), url });
      expect([url, res.status, res.body.error]).toEqual([url, 400, reason]);
    }
  });

  it('one slug per organization by transaction: 10 parallel creates, one 201; another organization may reuse it', async () => {
    const s = slug();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => p.post(base(), { name: 'Same', slug: s, url: URL_ })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(answers.find((a) => a.status === 409)?.body).toEqual({ error: `Slug "${s}" is already in use.` });
    const other = await p.newOrg();
    const there = await p.post(
      `/v1/orgs/${other.org.orgId}/connectors`,
      { name: 'Same', slug: s, url: URL_ },
      {
        token: other.owner.token,
      },
    );
    expect(there.status).toBe(201);
    // Deleting frees the slug.
    const mine = answers.find((a) => a.status === 201)?.body.connector.connectorId;
    expect((await p.delete(`${base()}/${mine}`)).status).toBe(204);
    expect((await p.post(base(), { name: 'Again', slug: s, url: URL_ })).status).toBe(201);
  });

  it('50 connectors per organization, held in parallel; a delete makes room', async () => {
    const { org, owner } = await p.newOrg();
    const at = `/v1/orgs/${org.orgId}/connectors`;
    const answers = await Promise.all(
      Array.from({ length: 55 }, (_, i) =>
        p.post(at, { name: `C${i}`, slug: `c${i}`, url: URL_ }, { token: owner.token }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(50);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => [a.status, a.body.error])).toEqual(
      Array(5).fill([400, 'An organization can have up to 50 connectors.']),
    );
    expect((await p.get(at, { token: owner.token })).body.connectors).toHaveLength(50);
    const first = answers.find((a) => a.status === 201)?.body.connector.connectorId;
    expect((await p.delete(`${at}/${first}`, { token: owner.token })).status).toBe(204);
    expect((await p.post(at, { name: 'Room', slug: 'room', url: URL_ }, { token: owner.token })).status).toBe(201);
    expect((await p.post(at, { name: 'Full', slug: 'full', url: URL_ }, { token: owner.token })).status).toBe(400);
  });
});

describe('patch and delete', () => {
  it('renames, disables, replaces the credential; the spec’s two 400s; 404', async () => {
    const made = await p.post(base(), { name: 'P', slug: slug(), url: URL_, authType: 'bearer', secret: 'old' });
    const id = made.body.connector.connectorId;
    const before = (await rawRecord(p.org.orgId, id))?.secret;
    const patched = await p.patch(`${base()}/${id}`, { name: ' New name ', enabled: false, secret: 'new' });
    expect(patched.status).toBe(200);
    expect(patched.body.connector).toMatchObject({ name: 'New name', enabled: false, hasSecret: true });
    expect(patched.body.connector.updatedAt).toBeGreaterThanOrEqual(made.body.connector.updatedAt);
    const after = (await rawRecord(p.org.orgId, id))?.secret;
    expect(after).toMatch(/^v1\./);
    expect(after).not.toBe(before);

    const nothing = await p.patch(`${base()}/${id}`, {});
    expect(nothing.status).toBe(400);
    expect(nothing.body).toEqual({ error: 'Nothing to update.' });
    const plain = await p.post(base(), { name: 'N', slug: slug(), url: URL_ });
    const noCredential = await p.patch(`${base()}/${plain.body.connector.connectorId}`, { secret: 'x' });
    expect(noCredential.status).toBe(400);
    expect(noCredential.body).toEqual({ error: "This connector doesn't use a credential." });
    const missing = await p.patch(`${base()}/con_missing`, { name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Connector not found' });
  });

  it('delete removes the record, its secrets and tokens; then 404 everywhere', async () => {
    const made = await p.post(base(), {
      name: 'D',
      slug: slug(),
      url: URL_,
      authType: 'header',
      headerName: 'X-K',
      secret: 's',
    });
    const id = made.body.connector.connectorId;
    expect((await p.delete(`${base()}/${id}`)).status).toBe(204);
    expect(await rawRecord(p.org.orgId, id)).toBeUndefined();
    for (const res of [
      await p.get(`${base()}/${id}`),
      await p.delete(`${base()}/${id}`),
      await p.post(`${base()}/${id}/test`),
      await p.post(`${base()}/${id}/oauth/start`, {}),
    ]) {
      expect([res.status, res.body]).toEqual([404, { error: 'Connector not found' }]);
    }
  });

  it('another organization’s connector is not found; viewers read, keys write with the scope', async () => {
    const made = await p.post(base(), { name: 'V', slug: slug(), url: URL_ });
    const id = made.body.connector.connectorId;
    const other = await p.newOrg();
    const cross = await p.get(`/v1/orgs/${other.org.orgId}/connectors/${id}`, { token: other.owner.token });
    expect([cross.status, cross.body]).toEqual([404, { error: 'Connector not found' }]);
    const viewer = await p.person('viewer');
    expect((await p.get(base(), { token: viewer.token })).status).toBe(200);
    const denied = await p.post(base(), { name: 'V', slug: slug(), url: URL_ }, { token: viewer.token });
    expect([denied.status, denied.body]).toEqual([403, { error: 'Missing scope connectors:write' }]);
    const key = await p.apiKey(['connectors:read', 'connectors:write']);
    const byKey = await p.post(base(), { name: 'K', slug: slug(), url: URL_ }, { token: key });
    expect(byKey.status).toBe(201);
  });

  it('an organization holding a connector is not deleted until the connector is (its only counted record)', async () => {
    const { org, owner } = await p.newOrg();
    const at = `/v1/orgs/${org.orgId}/connectors`;
    const made = await p.post(
      at,
      { name: 'Held', slug: 'held', url: URL_, authType: 'bearer', secret: 's' },
      {
        token: owner.token,
      },
    );
    expect((await p.get(`/v1/orgs/${org.orgId}/contents`, { token: owner.token })).body.contents.connectors).toBe(1);
    const refused = await p.delete(`/v1/orgs/${org.orgId}`, { token: owner.token });
    expect([refused.status, refused.body]).toEqual([409, { error: 'Remove its 1 connector first.' }]);
    expect((await p.delete(`${at}/${made.body.connector.connectorId}`, { token: owner.token })).status).toBe(204);
    expect((await p.delete(`/v1/orgs/${org.orgId}`, { token: owner.token })).status).toBe(204);
  });
});
