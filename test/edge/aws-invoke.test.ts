import { InvokeCommand, LambdaClient, ResourceNotFoundException } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { awsRuntime } from '../../shared/ports/runtime/aws';
import type { FunctionRequest } from '../../shared/ports/runtime/port';

/**
 * The runtime port's `invoke` on AWS (the router's way to a server function): Lambda's Invoke
 * with a function URL event, which the Lambda Web Adapter turns into the app's HTTP request; the
 * function URL response back, its failures as 502 and 504.
 */
const lambda = mockClient(LambdaClient);
beforeEach(() => lambda.reset());
afterAll(() => lambda.restore());

const request: FunctionRequest = {
  method: 'POST',
  path: '/api/items',
  query: 'a=1&b=2',
  headers: { 'content-type': 'application/json', cookie: 'a=1; b=2', 'user-agent': 'ua' },
  body: Buffer.from('{"x":1}'),
  host: 'shop.example.com',
  sourceIp: '203.0.113.9',
  requestId: 'req-1',
};
const payload = (x: unknown) => new Uint8Array(Buffer.from(JSON.stringify(x)));

test('sends a function URL event and answers the function URL response', async () => {
  lambda.on(InvokeCommand).resolves({
    StatusCode: 200,
    Payload: payload({
      statusCode: 201,
      headers: { 'content-type': 'application/json' },
      cookies: ['s=1; Path=/'],
      body: Buffer.from('{"ok":true}').toString('base64'),
      isBase64Encoded: true,
    }) as never,
  });
  const answer = await awsRuntime().invoke('dpl_0123456789abcdef', request);
  expect(answer).toEqual({
    status: 201,
    headers: { 'content-type': 'application/json' },
    cookies: ['s=1; Path=/'],
    body: Buffer.from('{"ok":true}'),
  });
  const input = lambda.commandCalls(InvokeCommand)[0]?.args[0].input;
  expect(input?.FunctionName).toBe('plt-fn-dpl_0123456789abcdef');
  const event = JSON.parse(Buffer.from(input?.Payload as Uint8Array).toString('utf8'));
  expect(event).toMatchObject({
    version: '2.0',
    rawPath: '/api/items',
    rawQueryString: 'a=1&b=2',
    cookies: ['a=1', 'b=2'],
    headers: { host: 'shop.example.com', 'x-forwarded-host': 'shop.example.com', 'content-type': 'application/json' },
    requestContext: { http: { method: 'POST', path: '/api/items', sourceIp: '203.0.113.9' }, requestId: 'req-1' },
    isBase64Encoded: true,
  });
  expect(event.headers.cookie).toBeUndefined();
  expect(Buffer.from(event.body, 'base64').toString()).toBe('{"x":1}');
});

test('a failed function is 502, a timed out one 504, one gone 502; a plain string body is kept', async () => {
  lambda
    .on(InvokeCommand)
    .resolvesOnce({ FunctionError: 'Unhandled', Payload: payload({ errorMessage: 'boom' }) as never })
    .resolvesOnce({
      FunctionError: 'Unhandled',
      Payload: payload({ errorMessage: 'Task timed out after 30.00 seconds' }) as never,
    })
    .rejectsOnce(new ResourceNotFoundException({ message: 'gone', $metadata: {} }))
    .resolvesOnce({ Payload: payload({ statusCode: 200, body: 'plain' }) as never });
  const invoke = () => awsRuntime().invoke('dpl_0123456789abcdef', request);
  expect((await invoke()).status).toBe(502);
  expect((await invoke()).status).toBe(504);
  expect((await invoke()).status).toBe(502);
  expect(await invoke()).toMatchObject({ status: 200, body: Buffer.from('plain') });
});
