import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin, PluginBuild } from 'esbuild';

/**
 * One chunk at start: an esbuild plugin for code splitting. esbuild puts each file in a chunk by
 * the set of entry points that reach it, and every `import()` is an entry point. A function's
 * start-up code is reached by the entry and by different subsets of its lazily loaded modules (a
 * route module uses the store, an adapter the SDK's signer, …), so it came out in a dozen chunks or
 * more, and Node loads each as a module of its own: at start, each file costs about as much as 10 KB
 * of code.
 *
 * Here every `import()` target is reached through a small module that first imports the entry
 * itself (already evaluated when any `import()` runs, so nothing runs twice) and then re-exports the
 * target. Every file the entry reaches is then reached by every entry point, so all of the start-up
 * code lands in one chunk; what only lazily loaded modules reach is split as before. Targets that
 * are not ES modules (a CommonJS package's file) are left as they are. One constraint follows: an
 * entry must not await an `import()` at its top level (its wrapper would wait for the entry, which
 * waits for it); no entry does, and test/infra/bundles.test.ts starts every bundle, where one that
 * did would hang.
 */

const NS = 'lazy-target';

/** An `import()` target, imported again from its wrapper as its importer named it. */
interface Target {
  specifier: string;
  resolveDir: string;
  hasDefault: boolean;
}
/** Marks a resolve made by one of the bundle's plugins, which every plugin leaves to esbuild. */
export const PLAIN_RESOLVE = Symbol('bundle:plain-resolve');
const SKIP = PLAIN_RESOLVE;
const ESM = /^\s*(import|export)\s/m;
const DEFAULT_EXPORT = /export\s+default\b|export\s*\{[^}]*\bas\s+default\b/;

export function oneStartChunk(entryFile?: () => string): Plugin {
  return {
    name: 'one-start-chunk',
    setup(build: PluginBuild) {
      const { entryPoints, absWorkingDir } = build.initialOptions;
      const entries = Array.isArray(entryPoints) ? entryPoints : [];
      if (!entryFile && (entries.length !== 1 || typeof entries[0] !== 'string')) return;
      const entryOf = entryFile ?? (() => resolve(absWorkingDir ?? process.cwd(), entries[0] as string));

      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === SKIP) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          namespace: args.namespace,
          pluginData: SKIP,
        });
        if (resolved.errors.length > 0 || resolved.external) return undefined;
        // A file is read to see that it is an ES module and whether it has a default export; a
        // module another plugin makes (a narrowed barrel) is one, without a default.
        let hasDefault = false;
        if (resolved.namespace === 'file') {
          const source = readFileSync(resolved.path, 'utf8');
          if (!ESM.test(source)) return undefined;
          hasDefault = DEFAULT_EXPORT.test(source);
        }
        const target: Target = { specifier: args.path, resolveDir: args.resolveDir, hasDefault };
        return { path: `${resolved.namespace}:${resolved.path}`, namespace: NS, pluginData: target };
      });

      build.onLoad({ filter: /.*/, namespace: NS }, (args) => {
        const { specifier, resolveDir, hasDefault } = args.pluginData as Target;
        const target = JSON.stringify(specifier);
        const lines = [`import ${JSON.stringify(entryOf())};`, `export * from ${target};`];
        if (hasDefault) lines.push(`export { default } from ${target};`);
        const contents = lines.join('\n');
        return { contents, resolveDir, loader: 'js', pluginData: { source: contents } };
      });
    },
  };
}
