import type { BuildOptions } from 'esbuild';

/**
 * How every function is bundled, for `npm run build`, the bench and the CDK stack alike: ESM,
 * module-first resolution (the AWS SDK's ES modules tree-shake), minified, for nodejs22.x, into a
 * folder: `index.mjs` and, code splitting, `chunks/` for what is loaded with `import()` (the ports'
 * adapters and their SDK clients), so a function's cold start loads only what every request needs.
 */
export const bundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  splitting: true,
  entryNames: 'index',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  target: 'node22',
  mainFields: ['module', 'main'],
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  // Some CommonJS dependencies call require() for Node built-ins.
  banner: { js: "import{createRequire as __cr}from'module';const require=__cr(import.meta.url);" },
} satisfies BuildOptions;
