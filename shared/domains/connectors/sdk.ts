import type * as Auth from '@modelcontextprotocol/sdk/client/auth.js';
import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as Sse from '@modelcontextprotocol/sdk/client/sse.js';
import type * as StreamableHttp from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/**
 * The MCP SDK's client side, for connectors, as one module loaded with `import()` where a route
 * needs it (shared/domains/connectors/mcp.ts, oauth.ts): the bundle makes it a chunk of its own.
 *
 * Its CommonJS build on purpose: the SDK's ES build shares zod's ES modules with the function's own
 * validation (zod/mini), and a module shared by the two is loaded at the function's start, with
 * all the SDK needs of it (~65 KB more at every cold start). Required, the SDK and the zod it
 * brings are CommonJS files no one else loads, so they all stay in this chunk.
 */
export const sdk = {
  client: require('@modelcontextprotocol/sdk/client/index.js') as typeof ClientModule,
  streamableHttp: require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof StreamableHttp,
  sse: require('@modelcontextprotocol/sdk/client/sse.js') as typeof Sse,
  auth: require('@modelcontextprotocol/sdk/client/auth.js') as typeof Auth,
};
