import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react-swc';
import { defineConfig } from 'vite';

/**
 * The platform's web app: served at `/app/` by `npm start` (and from S3 behind CloudFront on
 * AWS). `npm run web:dev` runs Vite's dev server with the API and the identity provider's
 * endpoints proxied to `npm start` (PLATFORM_URL, default http://localhost:3000), see docs/web-app.md.
 */
const platform = process.env.PLATFORM_URL ?? 'http://localhost:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The bundle budget (test/web/budget.unit.test.ts) reads the entry's static imports here.
    manifest: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    proxy: {
      '/v1': platform,
      '/health': platform,
      '/app/config.json': platform,
    },
  },
});
