import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Plugin, PluginBuild } from 'esbuild';

/**
 * Narrow barrels: an esbuild plugin for code splitting. The AWS SDK's shared packages expose
 * subpath barrels (`@smithy/core/protocols`, `@aws-sdk/core/protocols`, …) that re-export every
 * protocol, serializer and stream helper of every client. esbuild splits by file: a file reached
 * from the entry through any import, a barrel's re-export of a name nobody at start uses included,
 * is put in a chunk that loads at start whenever some lazily loaded client (S3's XML protocol, say)
 * uses it. So a function whose routes load S3 later loaded S3's XML serializer at start.
 *
 * This plugin hands each importer in node_modules a barrel of its own, made of the names it
 * imports, each taken straight from the file that defines it; what a barrel declares itself
 * (a few bound helpers) lives in one module per barrel that every importer shares. No code is
 * changed or copied: every name still has exactly one defining module, so classes stay one class
 * for every client. An importer whose imports can't be read (a namespace import, `export *`) gets
 * every name, as before.
 */

/** The subpath barrels narrowed: `@smithy/core/<x>` and `@aws-sdk/core/<x>`. */
const BARREL = /^@(smithy|aws-sdk)\/core\/[a-z0-9-]+$/;
const NS = 'narrow-barrel';
const LOCALS_NS = 'barrel-locals';
/** Marks a resolve made by one of the bundle's plugins, which every plugin leaves to esbuild. */
const SKIP = Symbol.for('bundle:plain-resolve');

interface Barrel {
  file: string;
  /** Exported name → where it comes from: a module specifier (relative to the barrel) and the name there. */
  reexports: Map<string, { from: string; name: string }>;
  /** Names the barrel declares itself. */
  locals: string[];
  /** The barrel's source without its re-export statements (its own declarations and their imports). */
  localSource: string;
}

const REEXPORT = /export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["'];?/g;
const LOCAL_DECL = /export\s+(?:const|let|var|class|function\*?|async\s+function)\s+([A-Za-z_$][\w$]*)/g;
const LOCAL_LIST = /export\s*\{([^}]*)\}/g;
const UNREADABLE = /export\s*\*|export\s+default/;

const namesOf = (list: string) =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [name, as] = s.split(/\s+as\s+/);
      return { name: (name as string).trim(), as: (as ?? name ?? '').trim() };
    });

/** A barrel read, or undefined when it holds something this plugin does not narrow. */
function readBarrel(file: string): Barrel | undefined {
  const source = readFileSync(file, 'utf8');
  if (UNREADABLE.test(source)) return undefined;
  const reexports = new Map<string, { from: string; name: string }>();
  for (const m of source.matchAll(REEXPORT)) {
    for (const { name, as } of namesOf(m[1] as string)) reexports.set(as, { from: m[2] as string, name });
  }
  const localSource = source.replace(REEXPORT, '');
  const locals = [...localSource.matchAll(LOCAL_DECL)].map((m) => m[1] as string);
  for (const m of localSource.matchAll(LOCAL_LIST)) locals.push(...namesOf(m[1] as string).map((n) => n.as));
  return { file, reexports, locals, localSource };
}

/**
 * The names an importer takes from `specifier`, or undefined when it takes them in a way that
 * can't be listed (`import * as`, a default import, `export * from`, a bare import).
 */
function namesImported(importerSource: string, specifier: string): string[] | undefined {
  const spec = specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const named = new RegExp(`(?:import|export)\\s*\\{([^}]*)\\}\\s*from\\s*["']${spec}["']`, 'g');
  const any = new RegExp(`(?:import|export)[^;'"]*["']${spec}["']`, 'g');
  const statements = [...importerSource.matchAll(any)].length;
  const lists = [...importerSource.matchAll(named)];
  if (lists.length === 0 || lists.length !== statements) return undefined;
  return [...new Set(lists.flatMap((m) => namesOf(m[1] as string).map((n) => n.name)))].sort();
}

export function narrowBarrels(): Plugin {
  return {
    name: 'narrow-barrels',
    setup(build: PluginBuild) {
      const barrels = new Map<string, Barrel | undefined>();
      const barrelOf = (file: string) => {
        if (!barrels.has(file)) barrels.set(file, readBarrel(file));
        return barrels.get(file);
      };

      build.onResolve({ filter: BARREL }, async (args) => {
        // A plugin's own resolve is left to esbuild; an `import()` too (lib/bundle-start-chunk.ts wraps
        // it, and its wrapper's static import of the barrel comes back here).
        if (args.pluginData === SKIP || args.kind === 'dynamic-import') return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: SKIP,
        });
        if (resolved.errors.length > 0 || !resolved.path) return undefined;
        const barrel = barrelOf(resolved.path);
        if (!barrel) return undefined;
        // The importer's source: a file of a package, or one of this plugin's own modules.
        const own = (args.pluginData as { source?: string } | undefined)?.source;
        const fromPackage = args.namespace === 'file' && args.importer.includes('node_modules');
        const source = own ?? (fromPackage ? readFileSync(args.importer, 'utf8') : undefined);
        const names = source === undefined ? undefined : namesImported(source, args.path);
        const all = [...barrel.reexports.keys(), ...barrel.locals].sort();
        const wanted = (names ?? all).filter((n) => barrel.reexports.has(n) || barrel.locals.includes(n));
        return {
          path: `${resolved.path}#${wanted.join(',')}`,
          namespace: NS,
          pluginData: { barrel: resolved.path, wanted },
        };
      });

      build.onLoad({ filter: /.*/, namespace: NS }, (args) => {
        const { barrel: file, wanted } = args.pluginData as { barrel: string; wanted: string[] };
        const barrel = barrelOf(file) as Barrel;
        const lines: string[] = [];
        const locals: string[] = [];
        for (const name of wanted) {
          const re = barrel.reexports.get(name);
          if (re) lines.push(`export { ${re.name} as ${name} } from ${JSON.stringify(re.from)};`);
          else locals.push(name);
        }
        if (locals.length > 0) lines.push(`export { ${locals.join(', ')} } from ${JSON.stringify(`${file}?locals`)};`);
        const contents = lines.join('\n');
        return { contents, resolveDir: dirname(file), loader: 'js', pluginData: { source: contents } };
      });

      build.onResolve({ filter: /\?locals$/ }, (args) => ({
        path: args.path.slice(0, -'?locals'.length),
        namespace: LOCALS_NS,
      }));
      build.onLoad({ filter: /.*/, namespace: LOCALS_NS }, (args) => {
        const barrel = barrelOf(args.path) as Barrel;
        const contents = barrel.localSource;
        return { contents, resolveDir: dirname(args.path), loader: 'js', pluginData: { source: contents } };
      });
    },
  };
}
