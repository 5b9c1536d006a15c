import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Metafile } from 'esbuild';
import { bundleFunction, type FunctionBundler, functionBundler } from '../lib/bundle';
import { entryOf, type RouteGroup, routeGroups } from '../lib/route-groups';

/**
 * `npm run build`: one esbuild bundle per function of lib/route-groups.ts, with the options of
 * lib/bundle.ts (the ones CDK uses too), to `dist/functions/<name>/index.mjs` plus its metafile,
 * and the OpenAPI document to `dist/openapi.json`.
 * The bench imports `buildAll`/`bundleFile` so it measures exactly what this builds.
 */

export const ROOT = resolve(__dirname, '..');
export const DIST = join(ROOT, 'dist');

export interface Bundle {
  name: string;
  /** Absolute path of the bundle's entry (`index.mjs`; its chunks are beside it). */
  outfile: string;
  /** Absolute path of its esbuild metafile (JSON). */
  metafileFile: string;
  /** Bytes loaded at start: the entry and the chunks it imports statically. */
  bytes: number;
  /** Bytes of every output file, the chunks loaded on first use included. */
  totalBytes: number;
  metafile: Metafile;
}

/**
 * Bundles one entry file exactly as a function is bundled (into `outfile`'s folder), and writes the
 * metafile beside it; by `bundler` when given (bundleEach's, which keeps esbuild's parse of the files
 * the functions share).
 */
export async function bundleFile(
  name: string,
  entry: string,
  outfile: string,
  bundler?: FunctionBundler,
): Promise<Bundle> {
  const outdir = dirname(outfile);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  // Errors are reported once, by the caller, with the function's name.
  const result = bundler
    ? await bundler.bundle({ entry, outdir })
    : await bundleFunction({ entry, outdir, absWorkingDir: ROOT, logLevel: 'silent' });
  const entryOut = relative(ROOT, outfile).split('\\').join('/');
  if (!result.metafile.outputs[entryOut]) throw new Error(`esbuild reported no output for ${name}`);
  const metafileFile = join(outdir, 'meta.json');
  writeFileSync(metafileFile, JSON.stringify(result.metafile));
  const bytesOf = (paths: string[]) => paths.reduce((n, p) => n + (result.metafile.outputs[p]?.bytes ?? 0), 0);
  return {
    name,
    outfile,
    metafileFile,
    bytes: bytesOf(initialOutputs(result.metafile, entryOut)),
    totalBytes: bytesOf(Object.keys(result.metafile.outputs)),
    metafile: result.metafile,
  };
}

/** The outputs loaded when `entry` is imported: it and what it imports statically, transitively. */
export function initialOutputs(metafile: Metafile, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path) || !metafile.outputs[path]) return;
    seen.add(path);
    for (const i of metafile.outputs[path].imports) if (i.kind === 'import-statement') visit(i.path);
  };
  visit(entry);
  return [...seen];
}

export const outfileOf = (group: RouteGroup) => join(DIST, 'functions', group.name, 'index.mjs');

/**
 * Entry files bundled one after another by one esbuild context (lib/bundle.ts functionBundler):
 * esbuild parses the files they share once, where a build each parsed them for every function
 * (25 route groups: about a third of the CPU time of 25 separate builds). A bundle, or why it failed.
 * `shared`: a bundler kept for more (the bundles test makes the workers' with the route groups').
 */
export async function bundleEach(
  jobs: { name: string; entry: string; outfile: string }[],
  shared?: FunctionBundler,
): Promise<({ bundle: Bundle } | { error: string })[]> {
  const bundler = shared ?? (await functionBundler({ absWorkingDir: ROOT, logLevel: 'silent' }));
  const results: ({ bundle: Bundle } | { error: string })[] = [];
  try {
    for (const j of jobs) {
      try {
        results.push({ bundle: await bundleFile(j.name, j.entry, j.outfile, bundler) });
      } catch (err) {
        results.push({ error: describe(err) });
      }
    }
  } finally {
    // A bundler passed in is its owner's to dispose of.
    if (!shared) await bundler.dispose();
  }
  return results;
}

/** Each function of the table: a bundle, or why it failed. */
export async function buildEach(
  groups: RouteGroup[] = routeGroups,
  shared?: FunctionBundler,
): Promise<({ group: RouteGroup; bundle: Bundle } | { group: RouteGroup; error: string })[]> {
  const results = await bundleEach(
    groups.map((g) => ({ name: g.name, entry: entryOf(g), outfile: outfileOf(g) })),
    shared,
  );
  return results.map((r, i) => ({ group: groups[i] as RouteGroup, ...r }));
}

/** Every function of the table; rejects with every failure named when any bundle fails. */
export async function buildAll(groups: RouteGroup[] = routeGroups, shared?: FunctionBundler): Promise<Bundle[]> {
  const results = await buildEach(groups, shared);
  const failures = results.flatMap((r) => ('error' in r ? [`${r.group.name}: ${r.error}`] : []));
  if (failures.length > 0) throw new Error(`Bundling failed:\n${failures.join('\n')}`);
  return results.map((r) => (r as { bundle: Bundle }).bundle);
}

function describe(err: unknown): string {
  const errors = (err as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors;
  if (errors?.length) {
    return errors.map((e) => (e.location ? `${e.location.file}:${e.location.line}: ${e.text}` : e.text)).join('\n  ');
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * Bytes in the output per package (`@scope/name` for node_modules, the first two folders for the
 * project's own code), largest first: what a bundle is made of.
 */
export function packagesOf(bundle: Bundle): { name: string; bytes: number }[] {
  const entry = relative(ROOT, bundle.outfile).split('\\').join('/');
  const sizes = new Map<string, number>();
  for (const out of initialOutputs(bundle.metafile, entry)) {
    for (const [path, input] of Object.entries(bundle.metafile.outputs[out]?.inputs ?? {})) {
      const name = packageOf(path);
      sizes.set(name, (sizes.get(name) ?? 0) + input.bytesInOutput);
    }
  }
  return [...sizes].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}

export function packageOf(path: string): string {
  const at = path.lastIndexOf('node_modules/');
  if (at < 0) return path.split('/').slice(0, 2).join('/');
  const parts = path.slice(at + 'node_modules/'.length).split('/');
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const started = Date.now();
  const bundles = await buildAll();
  // The OpenAPI document of the route table, the build artifact of the API reference (scripts/openapi.ts).
  const { OPENAPI_FILE, writeOpenApi } = await import('./openapi');
  await writeOpenApi();
  const rows = bundles.map((b) => {
    const top = packagesOf(b)
      .slice(0, 3)
      .map((p) => `${p.name} ${kb(p.bytes)}`)
      .join(', ');
    return `| ${b.name} | ${relative(ROOT, b.outfile)} | ${b.bytes} | ${kb(b.bytes)} | ${top} |`;
  });
  process.stdout.write(
    [
      '| function | bundle | bytes | size | largest packages |',
      '|---|---|--:|--:|---|',
      ...rows,
      '',
      `${bundles.length} function(s) bundled in ${Date.now() - started} ms; metafiles beside each bundle (meta.json).`,
      `OpenAPI document: ${relative(ROOT, OPENAPI_FILE)}.`,
      '',
    ].join('\n'),
  );
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

/** A local adapter (`shared/ports/<name>/local.ts`) or anything of the local platform (`lib/local/`). */
const LOCAL_CODE = /(^|\/)(shared\/ports\/[^/]+\/local\.ts|lib\/local\/)/;
const SDK_CLIENT = /node_modules\/@aws-sdk\/(client-[a-z0-9-]+)\//;

/**
 * What a Lambda bundle must not hold, read from its metafile: any local adapter or local platform
 * code, in any output file; and, in what loads at start (the entry and its static imports), any
 * AWS SDK client but `startClients` (the others load with the first route that needs them).
 */
export function bundleViolations(metafile: Metafile, entry: string, startClients = ['client-dynamodb']): string[] {
  const out: string[] = [];
  for (const [file, output] of Object.entries(metafile.outputs)) {
    for (const input of Object.keys(output.inputs)) if (LOCAL_CODE.test(input)) out.push(`${file} holds ${input}`);
  }
  const atStart = new Set<string>();
  for (const file of initialOutputs(metafile, entry)) {
    for (const input of Object.keys(metafile.outputs[file]?.inputs ?? {})) {
      const client = SDK_CLIENT.exec(input)?.[1];
      if (client && !startClients.includes(client)) atStart.add(client);
    }
  }
  for (const client of atStart) out.push(`${entry} loads @aws-sdk/${client} at start`);
  return out;
}

/** A worker's bundle, as the stack builds it (lib/aws/workers.ts). */
export const workerOutfile = (name: string) => join(DIST, 'workers', name, 'index.mjs');
