import { type BuildOptions, type BuildResult, build } from 'esbuild';
import { narrowBarrels } from './bundle-barrels';
import { oneStartChunk } from './bundle-start-chunk';

/**
 * How every function is bundled, for `npm run build`, the bench and the CDK stack alike: ESM,
 * module-first resolution (the AWS SDK's ES modules tree-shake), minified, for nodejs22.x, into a
 * folder: `index.mjs` and, code splitting, `chunks/` for what is loaded with `import()` (the ports'
 * adapters and their SDK clients, a group's route modules), so a function's cold start loads only
 * what every request needs. Two plugins shape the split: the SDK's shared barrels are narrowed to
 * what each importer takes (lib/bundle-barrels.ts), and what loads at start is one chunk
 * (lib/bundle-start-chunk.ts): at start, each file costs Node as much as ~10 KB of code.
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

/** One function bundled: its entry into `outdir` (`index.mjs` and `chunks/`), with the plugins. */
export function bundleFunction(o: {
  entry: string;
  outdir: string;
  absWorkingDir: string;
  logLevel?: BuildOptions['logLevel'];
}): Promise<BuildResult<{ metafile: true }>> {
  return build({
    ...bundleOptions,
    plugins: [narrowBarrels(), oneStartChunk()],
    absWorkingDir: o.absWorkingDir,
    entryPoints: [o.entry],
    outdir: o.outdir,
    metafile: true,
    logLevel: o.logLevel ?? 'error',
  });
}
