import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Plugin, PluginBuild, ResolveResult } from 'esbuild';
import { PLAIN_RESOLVE } from './bundle-start-chunk';

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

/**
 * The barrels narrowed: the subpaths of `@smithy/core` and `@aws-sdk/core`, and DynamoDB's two
 * packages (every function loads them at start; their `export *` indexes reach every command).
 */
const BARREL = /^(@(smithy|aws-sdk)\/core\/[a-z0-9-]+|@aws-sdk\/(client-dynamodb|lib-dynamodb))$/;
const NS = 'narrow-barrel';
const LOCALS_NS = 'barrel-locals';
const SKIP = PLAIN_RESOLVE;

/** Where an exported name is defined: a module (an absolute path, a package, or a barrel's locals) and its name there. */
interface Origin {
  from: string;
  name: string;
}

interface Barrel {
  file: string;
  /** Exported name → where it comes from, through any `export *` and `export { } from`. */
  reexports: Map<string, Origin>;
  /** Names the barrel declares itself. */
  locals: string[];
  /** The barrel's source without its re-export statements (its own declarations and their imports). */
  localSource: string;
}

const REEXPORT = /export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["'];?/g;
const STAR = /export\s*\*\s*from\s*["']([^"']+)["'];?/g;
const LOCAL_DECL = /export\s+(?:const|let|var|class|function\*?|async\s+function)\s+([A-Za-z_$][\w$]*)/g;
const LOCAL_LIST = /export\s*\{([^}]*)\}/g;
/** What this plugin does not read: a default export, a namespace re-export, a declaration of several names. */
const UNREADABLE =
  /export\s+default|export\s*\*\s*as|export\s+(?:const|let|var)\s+[^=;]+=[^;]*?,\s*[A-Za-z_$][\w$]*\s*=/;

const namesOf = (list: string) =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && !s.startsWith('type '))
    .map((s) => {
      const [name, as] = s.split(/\s+as\s+/);
      return { name: (name as string).trim(), as: (as ?? name ?? '').trim() };
    });

/** A relative specifier as Node's resolution of a package's ES files finds it: the file, `.js`, or `index.js`. */
function fileOf(specifier: string, dir: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dir, specifier);
  return [base, `${base}.js`, join(base, 'index.js')].find((f) => existsSync(f) && statSync(f).isFile());
}

/** A module's exports, read: a barrel (it re-exports) or undefined when it can't be read. */
function readModule(file: string, seen: Map<string, Barrel | undefined>): Barrel | undefined {
  if (seen.has(file)) return seen.get(file);
  seen.set(file, undefined);
  const source = readFileSync(file, 'utf8');
  if (UNREADABLE.test(source)) return undefined;
  const dir = dirname(file);
  const reexports = new Map<string, Origin>();
  for (const m of source.matchAll(REEXPORT)) {
    const from = fileOf(m[2] as string, dir) ?? (m[2] as string);
    for (const { name, as } of namesOf(m[1] as string)) reexports.set(as, { from, name });
  }
  const localSource = source.replace(REEXPORT, '').replace(STAR, '');
  const locals = [...localSource.matchAll(LOCAL_DECL)].map((m) => m[1] as string);
  for (const m of localSource.matchAll(LOCAL_LIST)) locals.push(...namesOf(m[1] as string).map((n) => n.as));
  // `export *`: every name of the module it names (a package's own files only), first one wins.
  for (const m of source.matchAll(STAR)) {
    const sub = fileOf(m[1] as string, dir);
    const inner = sub && readModule(sub, seen);
    if (!sub || !inner) return undefined;
    for (const [name, origin] of inner.reexports) if (!reexports.has(name)) reexports.set(name, origin);
    const own = inner.reexports.size === 0 && inner.localSource === readFileSync(sub, 'utf8');
    for (const name of inner.locals) {
      // A module that only declares is imported as itself; one that also re-exports, through its locals.
      if (!reexports.has(name)) reexports.set(name, { from: own ? sub : `${sub}?locals`, name });
    }
  }
  const barrel = { file, reexports, locals, localSource };
  seen.set(file, barrel);
  return barrel;
}

const STATEMENT = /(import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*["']([^"']+)["']|import\s*["']([^"']+)["']/g;

/**
 * What a module imports, by specifier: the names it takes, or undefined where it takes them in a
 * way that can't be listed (`import * as`, a default import, `export * from`, a bare import). A
 * TypeScript importer's type-only imports name nothing at run time and are left out. Read in one
 * pass per module.
 */
function importsOf(source: string): Map<string, string[] | undefined> {
  const found = new Map<string, string[] | undefined>();
  for (const m of source.matchAll(STATEMENT)) {
    const specifier = (m[4] ?? m[5]) as string;
    if (m[2]) continue;
    const list = m[3] === undefined ? undefined : /^\{([^}]*)\}$/.exec(m[3].trim())?.[1];
    const before = found.get(specifier);
    if (list === undefined || (found.has(specifier) && before === undefined)) {
      found.set(specifier, undefined);
      continue;
    }
    const names = namesOf(list).map((n) => n.name);
    found.set(specifier, [...new Set([...(before ?? []), ...names])].sort());
  }
  return found;
}

export function narrowBarrels(): Plugin {
  return {
    name: 'narrow-barrels',
    setup(build: PluginBuild) {
      const read = new Map<string, Barrel | undefined>();
      const barrelOf = (file: string) => readModule(file, read);
      const importers = new Map<string, Map<string, string[] | undefined>>();
      const resolutions = new Map<string, Promise<ResolveResult>>();
      const importsOfFile = (file: string) => {
        let imports = importers.get(file);
        if (!imports) {
          imports = importsOf(readFileSync(file, 'utf8'));
          importers.set(file, imports);
        }
        return imports;
      };

      // A bundler that serves many functions (lib/bundle.ts) keeps what it read of node_modules,
      // and reads the project's own files again at each build, as esbuild does.
      build.onStart(() => {
        for (const file of importers.keys()) if (!file.includes('/node_modules/')) importers.delete(file);
      });

      build.onResolve({ filter: BARREL }, async (args) => {
        // A plugin's own resolve is left to esbuild; an `import()` too (lib/bundle-start-chunk.ts wraps
        // it, and its wrapper's static import of the barrel comes back here).
        if (args.pluginData === SKIP || args.kind === 'dynamic-import') return undefined;
        // Resolved once per folder: every file of a folder finds a package in the same place.
        const key = `${args.path}\0${args.resolveDir}`;
        let resolving = resolutions.get(key);
        if (!resolving) {
          resolving = build.resolve(args.path, {
            kind: args.kind,
            importer: args.importer,
            resolveDir: args.resolveDir,
            pluginData: SKIP,
          });
          resolutions.set(key, resolving);
        }
        const resolved = await resolving;
        if (resolved.errors.length > 0 || !resolved.path) return undefined;
        const barrel = barrelOf(resolved.path);
        if (!barrel) return undefined;
        // The importer's source: a file (a package's or the project's), or one of this plugin's own modules.
        const own = (args.pluginData as { source?: string } | undefined)?.source;
        const imports =
          own !== undefined ? importsOf(own) : args.namespace === 'file' ? importsOfFile(args.importer) : undefined;
        const names = imports?.get(args.path);
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
