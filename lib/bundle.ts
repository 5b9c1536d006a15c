import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { type BuildOptions, type BuildResult, build, context, type Metafile, type Plugin } from 'esbuild';
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

export interface FunctionBundler {
  bundle(fn: { entry: string; outdir: string }): Promise<{ metafile: Metafile }>;
  dispose(): Promise<void>;
}

const ENTRY = 'bundled-function-entry';
/** Where the outputs are named before they are moved to each function's folder (nothing is written there). */
const STAGING = '.bundle-staging';

/**
 * Many functions bundled one after another by one esbuild context, each exactly as bundleFunction
 * bundles it: the context keeps what it parsed of the files that did not change (the AWS SDK, the
 * kernel), so each function after the first costs esbuild its own files, linking and minifying.
 * The entry is a name this plugin resolves to the function's file at each rebuild; the outputs,
 * made in memory, are written to the function's folder and the metafile's paths moved with them.
 */
export async function functionBundler(o: {
  absWorkingDir: string;
  logLevel?: BuildOptions['logLevel'];
}): Promise<FunctionBundler> {
  let entry = '';
  const entryPlugin: Plugin = {
    name: 'function-entry',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${ENTRY}$`) }, () => ({ path: entry }));
    },
  };
  const staging = join(o.absWorkingDir, STAGING);
  const ctx = await context({
    ...bundleOptions,
    plugins: [entryPlugin, narrowBarrels(), oneStartChunk(() => entry)],
    absWorkingDir: o.absWorkingDir,
    entryPoints: [ENTRY],
    outdir: staging,
    write: false,
    metafile: true,
    logLevel: o.logLevel ?? 'error',
  });
  let queue: Promise<unknown> = Promise.resolve();
  const bundleOne = async (fn: { entry: string; outdir: string }): Promise<{ metafile: Metafile }> => {
    entry = resolve(o.absWorkingDir, fn.entry);
    const result = await ctx.rebuild();
    const from = relative(o.absWorkingDir, staging).split('\\').join('/');
    const to = relative(o.absWorkingDir, fn.outdir).split('\\').join('/');
    const move = (p: string) => (p.startsWith(`${from}/`) ? `${to}${p.slice(from.length)}` : p);
    for (const f of result.outputFiles) {
      const file = join(fn.outdir, relative(staging, f.path));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, f.contents);
    }
    const outputs: Metafile['outputs'] = {};
    for (const [path, output] of Object.entries(result.metafile.outputs)) {
      outputs[move(path)] = { ...output, imports: output.imports.map((i) => ({ ...i, path: move(i.path) })) };
    }
    return { metafile: { inputs: result.metafile.inputs, outputs } };
  };
  return {
    /** One function (`entry`, absolute or relative to the working folder) into `outdir`; calls run one at a time. */
    bundle(fn) {
      const next = queue.then(() => bundleOne(fn));
      queue = next.catch(() => undefined);
      return next;
    },
    dispose: () => ctx.dispose(),
  };
}
