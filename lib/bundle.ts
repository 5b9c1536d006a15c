import type { BuildOptions } from 'esbuild';

/**
 * How every function is bundled, for `npm run build`, the bench and the CDK stack alike: ESM,
 * module-first resolution (the AWS SDK's ES modules tree-shake), minified, for nodejs22.x.
 */
export const bundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  mainFields: ['module', 'main'],
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  // Some CommonJS dependencies call require() for Node built-ins.
  banner: { js: "import{createRequire as __cr}from'module';const require=__cr(import.meta.url);" },
} satisfies BuildOptions;
