import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { MAX_BODY_DEPTH, NOT_TEXT, PROTO_NAME, TOO_DEEP } from '../../shared/kernel/http/body';
import { MALFORMED_PATH } from '../../shared/kernel/http/middleware/match-route';
import { newDatabase } from '../databases/helpers';
import { TestPlatform } from '../helpers/platform';

/**
 * Bad input the shared stack answers for every route, never with a 5xx and never by losing part
 * of it: paths that are not valid percent-encoding, bodies nested without end, and `__proto__`,
 * the one name JSON allows and a JavaScript object can't keep.
 */
let p: TestPlatform;

beforeAll(async () => {
  p = await TestPlatform.start();
});
afterAll(() => p.close());

describe('a path that is not valid percent-encoding', () => {
  const paths = () => [
    `/v1/orgs/${p.org.orgId}/projects/%E0%A4%A`,
    `/v1/orgs/${p.org.orgId}/projects/prj_1/env/%zz`,
    `/v1/orgs/%zz`,
    `/v1/orgs/%E0%A4%A/databases`,
    `/v1/me/%`,
  ];

  it('is 400 Malformed path in every group, before the token is even read', async () => {
    for (const path of paths()) {
      for (const token of [undefined, null]) {
        const res = await p.get(path, { token });
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 400,
          body: { error: MALFORMED_PATH },
        });
      }
    }
  });

  it('is 400 when API Gateway hands the raw path to the function as it came', async () => {
    const { handler } = (await import('../../functions/projects/handler')) as unknown as {
      handler: (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;
    };
    const rawPath = `/v1/orgs/${p.org.orgId}/projects/%E0%A4%A`;
    const event = {
      version: '2.0',
      routeKey: 'ANY /v1/orgs/{orgId}/projects/{proxy+}',
      rawPath,
      rawQueryString: '',
      headers: { authorization: `Bearer ${p.owner.token}` },
      requestContext: { http: { method: 'GET', path: rawPath }, requestId: 'malformed' },
      isBase64Encoded: false,
    } as unknown as APIGatewayProxyEventV2;
    const result = await handler(event, { awsRequestId: 'malformed' } as Context);
    expect([result.statusCode, JSON.parse(result.body as string)]).toEqual([400, { error: MALFORMED_PATH }]);
  });
});

describe('a JSON body', () => {
  it(`nested more than ${MAX_BODY_DEPTH} levels is 400, never a crash writing it out again`, async () => {
    const db = await newDatabase(p);
    const deep = `${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`;
    const res = await p.post(`${db.path}/items/get`, undefined, { rawBody: `{"key":{"pk":"a","sk":${deep}}}` });
    expect([res.status, res.body]).toEqual([400, { error: TOO_DEEP }]);
    // Deep, but within the limit: the route answers it (here the backend's own refusal).
    let within: unknown = 'x';
    for (let i = 0; i < MAX_BODY_DEPTH - 3; i++) within = [within];
    const ok = await p.post(`${db.path}/items/get`, { key: { pk: 'a', sk: within } });
    expect(ok.status).toBe(400);
    expect(ok.body.error).not.toBe(TOO_DEEP);
  });

  it('with a __proto__ name anywhere is 400 naming where, never stored without it', async () => {
    const db = await newDatabase(p);
    const tags = await p.patch(`${db.path}/tags`, undefined, {
      rawBody: '{"tags":{"team":"web","__proto__":"x"}}',
    });
    expect([tags.status, tags.body]).toEqual([
      400,
      { error: 'Invalid request', issues: [{ path: 'tags.__proto__', message: PROTO_NAME }] },
    ]);
    const item = await p.put(`${db.path}/items`, undefined, {
      rawBody: '{"item":{"pk":"a","sk":"b","doc":[{"__proto__":{"polluted":true}}]}}',
    });
    expect([item.status, item.body.issues]).toEqual([400, [{ path: 'item.doc.0.__proto__', message: PROTO_NAME }]]);
    const settings = await p.get(`${db.path}/settings`);
    expect(settings.body.settings.tags).not.toHaveProperty('team');
    const read = await p.post(`${db.path}/items/get`, { key: { pk: 'a', sk: 'b' } });
    expect(read.status).toBe(404);
  });

  it('with a lone surrogate in a text or a name is 400 naming where, never a crash encoding it', async () => {
    const bucket = await p.post(`/v1/orgs/${p.org.orgId}/resources`, { type: 'bucket', name: `lone-${Date.now()}` });
    const path = `/v1/orgs/${p.org.orgId}/storage/${bucket.body.resource.resourceId}`;
    const folder = await p.post(`${path}/folders`, undefined, { rawBody: '{"prefix":"docs/","name":"a\\ud800"}' });
    expect([folder.status, folder.body]).toEqual([
      400,
      { error: 'Invalid request', issues: [{ path: 'name', message: NOT_TEXT }] },
    ]);
    const upload = await p.post(`${path}/uploads`, undefined, {
      rawBody: '{"files":[{"key":"\\udc00x","contentType":"text/plain","size":1}]}',
    });
    expect([upload.status, upload.body.issues]).toEqual([400, [{ path: 'files.0.key', message: NOT_TEXT }]]);
    const name = await p.post(`${path}/folders`, undefined, { rawBody: '{"name":"ok","\\ud800":1}' });
    expect([name.status, name.body.issues]).toEqual([400, [{ path: '\ud800', message: NOT_TEXT }]]);
    // A pair is text: the folder is made.
    const pair = await p.post(`${path}/folders`, { prefix: 'docs/', name: 'rocket \ud83d\ude80' });
    expect(pair.status).toBe(201);
  });

  it('keeps constructor and prototype as ordinary names', async () => {
    const db = await newDatabase(p);
    const tags = await p.patch(`${db.path}/tags`, { tags: { constructor: 'a', prototype: 'b' } });
    expect(tags.status).toBe(200);
    expect(tags.body.tags).toEqual(expect.objectContaining({ constructor: 'a', prototype: 'b' }));
    const settings = await p.get(`${db.path}/settings`);
    expect(settings.body.settings.tags).toEqual(expect.objectContaining({ constructor: 'a', prototype: 'b' }));
    const item = {
      pk: { S: 'constructor' },
      sk: { S: 'prototype' },
      constructor: { S: 'c' },
      prototype: { M: { constructor: { M: { name: { S: 'String' } } } } },
    };
    expect((await p.put(`${db.path}/items`, { item })).status).toBe(201);
    const read = await p.post(`${db.path}/items/get`, { key: { pk: 'constructor', sk: 'prototype' } });
    expect([read.status, read.body.item]).toEqual([200, item]);
  });
});
