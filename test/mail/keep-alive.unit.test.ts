import { createGateway, listen } from '../../lib/local/gateway';

/**
 * The mail flow's ECONNRESET (issue 42): the test's `until` polls the local gateway every 100 ms
 * over a pooled keep-alive connection while the mail-inbound worker, in the same process, parses a
 * 3.6 MB message. On a busy machine that held the event loop past Node's keep-alive timeout (5 s,
 * closed at 6): as the loop came back, the poll's pause ended first and its request went out on
 * the pooled connection, then the server's expired timer destroyed that connection with the
 * request unread, and the client read ECONNRESET. The gateway leaves idle connections to their
 * clients (no keep-alive timer), so a held loop can't do that. Reproduced here by holding the loop.
 */
test('a request on a pooled connection, sent as a loop held past the keep-alive timeout comes back, is answered', async () => {
  const server = createGateway({
    extra: [
      (_req, res) => {
        res.end('ok');
        return true;
      },
    ],
  });
  const url = `http://127.0.0.1:${await listen(server, 0)}/probe`;
  try {
    const first = await fetch(url);
    expect(await first.text()).toBe('ok');
    // No `Keep-Alive: timeout=…` hint: the client keeps its own idle limit and ends the connection itself.
    expect(first.headers.get('keep-alive')).toBeNull();
    // A poll's pause begins; then other work in this process holds the loop past 6 s.
    const paused = new Promise((resolve) => setTimeout(resolve, 100));
    setImmediate(() => {
      const until = Date.now() + 7_000;
      while (Date.now() < until) {
        // held, as a large message's parse on a loaded machine held it
      }
    });
    await paused;
    expect(await (await fetch(url)).text()).toBe('ok');
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
