import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react-swc';
import { defineConfig, type Plugin } from 'vite';

/**
 * The platform's web app: served at `/app/` by `npm start` (and from S3 behind CloudFront on
 * AWS). `npm run web:dev` runs Vite's dev server against a running `npm start` (PLATFORM_URL,
 * default http://localhost:3000): the API proxied, and the platform's `/app/config.json` with the
 * redirect URI moved to the dev server's own address (docs/web-app.md).
 */
const platform = process.env.PLATFORM_URL ?? 'http://localhost:3000';

const devConfig = (): Plugin => ({
  name: 'platform-dev-config',
  configureServer(server) {
    server.middlewares.use('/app/config.json', async (req, res) => {
      try {
        const answer = await fetch(`${platform}/app/config.json`);
        const config = (await answer.json()) as Record<string, string>;
        const origin = `http://${req.headers.host}`;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ...config, apiUrl: '', redirectUri: `${origin}/app/callback` }));
      } catch (err) {
        res.statusCode = 502;
        res.end(`No platform at ${platform} (${(err as Error).message}): start it with npm start.`);
      }
    });
  },
});

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [react(), tailwindcss(), devConfig()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The bundle budget (test/web/budget.unit.test.ts) reads the entry's static imports here.
    manifest: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    proxy: { '/v1': platform, '/health': platform },
  },
});
