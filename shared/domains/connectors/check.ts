import { ConnectorError, checkTimeoutMs, listServerTools, maxTools } from './mcp';
import { accessFor, refreshAccess } from './oauth';
import { type ConnectorRecord, openFor, updateConnector } from './records';
import { keepTools, TOO_LARGE, toolItems } from './tools';

/** The headers that carry a connector's credential (`bearer`, `header`). */
async function credentialHeaders(c: ConnectorRecord): Promise<Record<string, string>> {
  if (c.authType === 'none' || c.authType === 'oauth' || c.secret === undefined) return {};
  const [secret] = await openFor(c, [c.secret]);
  return c.authType === 'bearer'
    ? { authorization: `Bearer ${secret}` }
    : { [(c.headerName as string).toLowerCase()]: secret as string };
}

/** Lists the tools as the connector's credential allows; an OAuth connector refreshes its token when it expired or on a 401. */
async function listAs(c: ConnectorRecord) {
  const options = { max: maxTools(), timeoutMs: checkTimeoutMs() };
  if (c.authType !== 'oauth') return listServerTools(c, await credentialHeaders(c), options);
  let access = await accessFor(c);
  if (!access) throw new ConnectorError('Sign in first: this connector uses OAuth (oauth/start).');
  try {
    return await listServerTools(c, { authorization: `Bearer ${access.token}` }, options);
  } catch (err) {
    if (!(err instanceof ConnectorError) || err.status !== 401 || !access.refreshable) throw err;
    access = await refreshAccess(c);
    return listServerTools(c, { authorization: `Bearer ${access.token}` }, options);
  }
}

/**
 * `test`: connects, lists the tools and caches them with the connector's new status (in one
 * transaction; a list unchanged since the last `test` is not written again). A failure keeps the
 * last good tools and records `status: error` and `lastError`. The connector as written.
 */
export async function checkConnector(c: ConnectorRecord): Promise<ConnectorRecord> {
  const now = Date.now();
  // The last good tools stay: only the status, the error and the time change.
  const failed = (message: string, fields: Partial<ConnectorRecord> = {}) =>
    updateConnector(c, {
      status: 'error',
      lastError: message.slice(0, 1000),
      lastCheckedAt: now,
      updatedAt: now,
      ...fields,
    });
  let listed: Awaited<ReturnType<typeof listAs>>;
  try {
    listed = await listAs(c);
  } catch (err) {
    // A server asking for more scope: the next sign-in asks for it.
    const stepUp = err instanceof ConnectorError ? err.stepUpScope : undefined;
    return failed(err instanceof Error ? err.message : String(err), stepUp ? { oauthScope: stepUp } : {});
  }
  const { tools } = keepTools(c.slug, listed.tools, maxTools());
  const stored = toolItems(c, tools);
  if (!stored) return failed(TOO_LARGE);
  const unchanged = stored.digest === c.toolsDigest && stored.parts === c.toolParts;
  return updateConnector(
    c,
    {
      status: 'ok',
      lastError: undefined,
      lastCheckedAt: now,
      updatedAt: now,
      toolCount: tools.length,
      omittedTools: listed.total - tools.length,
      toolParts: stored.parts,
      toolsDigest: stored.digest,
    },
    unchanged ? [] : stored.items,
  );
}
