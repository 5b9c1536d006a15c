import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { toEvent } from '../../lib/local/gateway';
import { groupFor, routeGroups } from '../../lib/route-groups';
import { addMember } from '../../shared/kernel/identity/orgs';
import { TestPlatform } from '../helpers/platform';
import { platformOrg } from '../platform/helpers';

/**
 * The sample API Gateway v2 events for `sam local invoke -e` (one per route group, docs/aws.md):
 * each is what API Gateway (and the local gateway) would hand the group's function, and replayed
 * through that very handler, with its placeholders filled in, it answers 200.
 */
type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const DIR = __dirname;
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const load = (group: string) => readFileSync(join(DIR, `${group}.json`), 'utf8');

let p: TestPlatform;
let vars: Record<string, string>;

beforeAll(async () => {
  p = await TestPlatform.start();
  const project = await p.post(`/v1/orgs/${p.org.orgId}/projects`, {
    name: 'Events',
    slug: `events-${Date.now().toString(36)}`,
  });
  expect(project.status).toBe(201);
  // The repository the repo-issues sample names.
  expect((await p.post(`/v1/orgs/${p.org.orgId}/repos`, { name: 'site' })).status).toBe(201);
  // The mailbox the calendar and contacts samples name (a `.test` domain verifies at once).
  const domain = `events-${Date.now().toString(36)}.test`;
  expect((await p.post(`/v1/orgs/${p.org.orgId}/mail/domains`, { domain })).status).toBe(201);
  const mailbox = await p.post(`/v1/orgs/${p.org.orgId}/mail/admin/mailboxes`, {
    address: `samples@${domain}`,
    name: 'Samples',
    members: [p.owner.userId],
  });
  expect(mailbox.status).toBe(201);
  // The platform sample is an operator's call: the owner administers the platform organization too.
  await addMember((await platformOrg()).orgId, p.owner.email, 'admin');
  vars = {
    TOKEN: p.owner.token,
    ORG_ID: p.org.orgId,
    PROJECT_ID: project.body.project.projectId,
    MAILBOX_ID: mailbox.body.mailbox.mailboxId,
  };
});
afterAll(async () => {
  await p?.close();
});

/** What `envsubst` does to the file (docs/aws.md: `envsubst < test/events/env.json > event.json`). */
const fill = (text: string) =>
  JSON.parse(
    text.replace(/\$\{([A-Z_]+)\}/g, (_, name: string) => {
      const value = vars[name];
      if (value === undefined) throw new Error(`unknown placeholder ${name}`);
      return value;
    }),
  ) as APIGatewayProxyEventV2;

function contextFor(group: string, requestId: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `platform-${group}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-central-1:123456789012:function:platform-${group}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/platform-${group}`,
    logStreamName: 'sample',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

it('there is one event per route group, and no other', () => {
  expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual(routeGroups.map((g) => g.name).sort());
});

describe.each(routeGroups.map((g) => g.name))('test/events/%s.json', (group) => {
  it('is the event API Gateway builds for its request, routed to this group', () => {
    const event = fill(load(group));
    const target = groupFor(event.rawPath);
    expect(target?.name).toBe(group);
    const url = `${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
    const req = {
      url,
      method: event.requestContext.http.method,
      headers: event.headers,
      httpVersion: '1.1',
      socket: { remoteAddress: '127.0.0.1' },
    } as unknown as IncomingMessage;
    const built = toEvent(req, Buffer.alloc(0), target as NonNullable<typeof target>);
    const pick = (e: APIGatewayProxyEventV2) => ({
      version: e.version,
      routeKey: e.routeKey,
      rawPath: e.rawPath,
      rawQueryString: e.rawQueryString,
      queryStringParameters: e.queryStringParameters,
      pathParameters: e.pathParameters,
      headers: e.headers,
      method: e.requestContext.http.method,
      path: e.requestContext.http.path,
      contextRouteKey: e.requestContext.routeKey,
      stage: e.requestContext.stage,
      isBase64Encoded: e.isBase64Encoded,
    });
    expect(pick(event)).toEqual(pick(built));
  });

  it("replayed through the group's handler, answers 200 with JSON", async () => {
    const { handler } = (await import(`../../functions/${group}/handler`)) as { handler: Handler };
    const event = fill(load(group));
    const result = await handler(event, contextFor(group, event.requestContext.requestId));
    expect({ status: result.statusCode, body: result.body?.slice(0, 300) }).toEqual({
      status: 200,
      body: expect.stringMatching(/^\{/),
    });
    expect(result.headers?.['content-type']).toBe('application/json; charset=utf-8');
  });

  it('as committed (placeholders not filled in), is refused with 401, not a crash (a public route answers)', async () => {
    const { handler } = (await import(`../../functions/${group}/handler`)) as { handler: Handler };
    const event = JSON.parse(load(group)) as APIGatewayProxyEventV2;
    const result = await handler(event, contextFor(group, 'raw'));
    if (event.headers.authorization === undefined) {
      expect(result.statusCode).toBe(200);
      return;
    }
    expect(result.statusCode).toBe(401);
    expect(JSON.parse(result.body as string)).toEqual({ error: 'Unauthorized' });
  });
});
