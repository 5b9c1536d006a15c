/**
 * The "client" the MCP conformance suite runs (`conformance client --command …`): the platform's
 * connectors, driven through the API as a person's browser would, against the suite's MCP server
 * and authorization server (their URL is the last argument). It creates an OAuth connector (with
 * the suite's pre-registered client when the scenario gives one), starts the sign-in, follows the
 * authorization server's redirects to the code, posts it to the callback (which runs `test`),
 * then tests once more; when the server asks for more scope, it signs in again first, as a person
 * told so by `lastError` would. PLATFORM_URL, PLATFORM_TOKEN and PLATFORM_ORG name the platform.
 */
const serverUrl = process.argv[process.argv.length - 1] as string;
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
  client_id?: string;
  client_secret?: string;
};
const base = `${process.env.PLATFORM_URL}/v1/orgs/${process.env.PLATFORM_ORG}/connectors`;

async function api(path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${process.env.PLATFORM_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function main(): Promise<void> {
  const made = await api('', {
    name: 'Conformance',
    slug: `conf-${Math.random().toString(36).slice(2, 10)}`,
    url: serverUrl,
    authType: 'oauth',
    ...(context.client_id ? { oauthClientId: context.client_id } : {}),
    ...(context.client_secret ? { oauthClientSecret: context.client_secret } : {}),
  });
  if (made.status !== 201) throw new Error(`create: ${made.status} ${JSON.stringify(made.body)}`);
  const id = made.body.connector.connectorId as string;
  await signIn(id);
  let tested = await api(`/${id}/test`, {});
  // A server asking for more scope (step-up): the person signs in again, as lastError tells them.
  if (/sign in again/.test(tested.body.connector?.lastError ?? '')) {
    await signIn(id);
    tested = await api(`/${id}/test`, {});
  }
  process.stdout.write(`${JSON.stringify(tested.body.connector)}\n`);
  if (tested.body.connector?.status !== 'ok') throw new Error(`test: ${tested.body.connector?.lastError}`);
}

/** `oauth/start`, the browser at the authorization server up to the code, then the callback (which tests). */
async function signIn(id: string): Promise<void> {
  const started = await api(`/${id}/oauth/start`, {});
  if (started.status !== 200) throw new Error(`oauth/start: ${started.status} ${JSON.stringify(started.body)}`);
  // The browser: follow redirects until one comes back to the platform's callback page.
  let at = new URL(started.body.url as string);
  for (let hop = 0; hop < 10 && !at.pathname.endsWith('/connectors/oauth/callback'); hop++) {
    const res = await fetch(at, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (!location) throw new Error(`the authorization server answered ${res.status} without a redirect`);
    at = new URL(location, at);
  }
  const code = at.searchParams.get('code');
  const done = await api('/oauth/callback', {
    state: at.searchParams.get('state'),
    ...(code ? { code } : { error: at.searchParams.get('error') ?? 'no_code' }),
  });
  if (done.status !== 200 || !done.body.connected) {
    throw new Error(`oauth/callback: ${done.status} ${JSON.stringify(done.body)}`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
});
