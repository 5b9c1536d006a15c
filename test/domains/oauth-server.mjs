// An OAuth authorization server for the DNS provider sign-in tests, in a process of its own
// (oauth2-mock-server ships ES modules only, which jest's CommonJS runtime cannot load). Prints
// `{ "issuer": … }` once listening; a token request with the code `refused` gets 400 invalid_grant.
// Ends when its stdin closes.
import { OAuth2Server } from 'oauth2-mock-server';

const server = new OAuth2Server();
await server.issuer.keys.generate('RS256');
server.service.on('beforeResponse', (response, req) => {
  if (req.body?.code === 'refused') {
    response.statusCode = 400;
    response.body = { error: 'invalid_grant' };
  }
});
await server.start(0, '127.0.0.1');
process.stdout.write(`${JSON.stringify({ issuer: server.issuer.url })}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  await server.stop();
  process.exit(0);
});
