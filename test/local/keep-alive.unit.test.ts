import type { Server } from 'node:http';
import { createGateway, listen } from '../../lib/local/gateway';
import { signatureGate } from '../../lib/local/s3-gate';
import { signedProxy } from '../../lib/local/signed-proxy';

/**
 * The mail flow's ECONNRESET (issue 42): the test's `until` polled the local gateway every 100 ms
 * over a pooled keep-alive connection while the mail-inbound worker, in the same process, parsed a
 * 3.6 MB message. On a busy machine that held the event loop past Node's keep-alive timeout (5 s,
 * closed at 6): as the loop came back, the poll's pause ended first and its request went out on
 * the pooled connection, then the server's expired timer destroyed that connection with the
 * request unread, and the client read ECONNRESET. The local servers clients pool connections to
 * (the gateway; the signing proxy in front of DynamoDB Local and the SQS engine; the S3 server's
 * gate) leave idle connections to their clients: no keep-alive timer, so a held loop can't do
 * that. Reproduced here by holding the loop once with a pooled connection to each.
 */
const credentials = { accessKeyId: 'LOCALKEY', secretAccessKey: 'local-secret' };
const servers: Record<string, Server> = {
  gateway: createGateway({
    extra: [
      (_req, res) => {
        res.end('ok');
        return true;
      },
    ],
  }),
  // Unsigned requests get the services' own refusals: an answer is all this needs.
  'signing proxy': signedProxy('sqs', async () => ({ status: 200, headers: {}, body: Buffer.from('ok') }), credentials),
  'S3 gate': signatureGate((_req, res) => res.end('ok'), credentials),
};

afterAll(() => {
  for (const server of Object.values(servers)) {
    server.closeAllConnections();
    server.close();
  }
});

test('a request on a pooled connection, sent as a loop held past the keep-alive timeout comes back, is answered', async () => {
  const urls = Object.fromEntries(
    await Promise.all(
      Object.entries(servers).map(async ([name, s]) => [name, `http://127.0.0.1:${await listen(s, 0)}/probe`]),
    ),
  ) as Record<string, string>;
  for (const url of Object.values(urls)) {
    const first = await fetch(url);
    await first.arrayBuffer();
    // No `Keep-Alive: timeout=…` hint: the client keeps its own idle limit and ends the connection itself.
    expect(first.headers.get('keep-alive')).toBeNull();
  }
  // A poll's pause begins; then other work in this process holds the loop past 6 s.
  const paused = new Promise((resolve) => setTimeout(resolve, 100));
  setImmediate(() => {
    const until = Date.now() + 7_000;
    while (Date.now() < until) {
      // held, as a large message's parse on a loaded machine held it
    }
  });
  await paused;
  const answered = await Promise.all(
    Object.entries(urls).map(async ([name, url]) => {
      try {
        const res = await fetch(url);
        await res.arrayBuffer();
        return `${name}: answered`;
      } catch (err) {
        return `${name}: ${String((err as { cause?: unknown }).cause ?? err)}`;
      }
    }),
  );
  expect(answered).toEqual(Object.keys(servers).map((name) => `${name}: answered`));
});
