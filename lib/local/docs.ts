import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { loadRouteTable, type OpenApiDocument, openApiDocument } from '../openapi';
import type { LocalRoute } from './gateway';

/**
 * The local platform's API documents, mounted beside the API by the local gateway (they are not
 * routes of the table: on AWS the document is a build artifact, `dist/openapi.json`):
 * - `GET /openapi.json`: the OpenAPI 3.1 document, its server being the address it was asked at;
 * - `GET /docs`: a reference page rendering it with Swagger UI, served from the npm package
 *   `swagger-ui-dist` on this machine. The page's CSP allows nothing but this origin.
 */

/** What the page loads, from the package's folder; nothing else of it is served. */
const ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  // Swagger UI sets style attributes at run time.
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Platform API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/** Outside the page (the CSP forbids inline scripts). `validatorUrl: null`: no call to an online validator. */
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  // Groups start folded: with every group open, the renderer stops after the first two (seen at 16 groups).
  docExpansion: 'none',
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  filter: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

export interface DocsOptions {
  /** The document without its server (loaded from the route table once, on first use, by default). */
  document?: () => Promise<OpenApiDocument>;
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra = {}): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
    ...extra,
  });
  res.end(body);
}

/** The origin the request was sent to, as the client sees it (the gateway listens on loopback only). */
function originOf(req: IncomingMessage): string {
  const host = req.headers.host ?? 'localhost';
  return `http://${host}`;
}

export function docsRoutes(options: DocsOptions = {}): LocalRoute[] {
  let doc: Promise<OpenApiDocument> | undefined;
  const load = () => {
    doc ??= (options.document ?? (async () => openApiDocument(await loadRouteTable())))();
    // A failed load is tried again on the next request rather than cached.
    doc.catch(() => {
      doc = undefined;
    });
    return doc;
  };
  const assets = new Map<string, Buffer>();
  const asset = (name: string) => {
    let bytes = assets.get(name);
    if (!bytes) {
      bytes = readFileSync(join(dirname(require.resolve('swagger-ui-dist/package.json')), name));
      assets.set(name, bytes);
    }
    return bytes;
  };

  const route: LocalRoute = async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    const isDocs = path === '/openapi.json' || path === '/docs' || path.startsWith('/docs/');
    if (!isDocs) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'application/json; charset=utf-8', JSON.stringify({ error: 'Method not allowed' }), {
        allow: 'GET, HEAD',
      });
      return true;
    }
    if (path === '/openapi.json') {
      const document: OpenApiDocument = {
        ...(await load()),
        servers: [{ url: originOf(req), description: 'This platform' }],
      };
      send(res, 200, 'application/json; charset=utf-8', JSON.stringify(document), {
        'cache-control': 'no-cache',
        'access-control-allow-origin': '*',
      });
    } else if (path === '/docs' || path === '/docs/') {
      send(res, 200, 'text/html; charset=utf-8', PAGE, { 'content-security-policy': CSP, 'cache-control': 'no-cache' });
    } else if (path === '/docs/init.js') {
      send(res, 200, 'text/javascript; charset=utf-8', INIT, { 'cache-control': 'no-cache' });
    } else {
      const name = path.slice('/docs/assets/'.length);
      const type = path.startsWith('/docs/assets/') ? ASSETS[name] : undefined;
      if (!type) send(res, 404, 'application/json; charset=utf-8', JSON.stringify({ error: 'Not found' }));
      else send(res, 200, type, asset(name), { 'cache-control': 'public, max-age=3600' });
    }
    return true;
  };
  return [route];
}
