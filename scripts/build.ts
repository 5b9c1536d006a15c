import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { bundleOptions } from '../lib/bundle';
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
  /** Absolute path of the bundle. */
  outfile: string;
  /** Absolute path of its esbuild metafile (JSON). */
  metafileFile: string;
  bytes: number;
  metafile: Metafile;
}

/** Bundles one entry file exactly as a function is bundled, and writes the metafile beside it. */
export async function bundleFile(name: string, entry: string, outfile: string): Promise<Bundle> {
  mkdirSync(dirname(outfile), { recursive: true });
  const result = await build({
    ...bundleOptions,
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile,
    metafile: true,
    // Errors are reported once, by the caller, with the function's name.
    logLevel: 'silent',
  });
  const output = result.metafile.outputs[relative(ROOT, outfile).split('\\').join('/')];
  if (!output) throw new Error(`esbuild reported no output for ${name}`);
  const metafileFile = join(dirname(outfile), 'meta.json');
  writeFileSync(metafileFile, JSON.stringify(result.metafile));
  return { name, outfile, metafileFile, bytes: output.bytes, metafile: result.metafile };
}

export const outfileOf = (group: RouteGroup) => join(DIST, 'functions', group.name, 'index.mjs');

export function buildOne(group: RouteGroup): Promise<Bundle> {
  return bundleFile(group.name, entryOf(group), outfileOf(group));
}

/** Each function of the table, bundled in parallel: a bundle, or why it failed. */
export async function buildEach(
  groups: RouteGroup[] = routeGroups,
): Promise<({ group: RouteGroup; bundle: Bundle } | { group: RouteGroup; error: string })[]> {
  const settled = await Promise.allSettled(groups.map((g) => buildOne(g)));
  return settled.map((s, i) => {
    const group = groups[i] as RouteGroup;
    return s.status === 'fulfilled' ? { group, bundle: s.value } : { group, error: describe(s.reason) };
  });
}

/** Every function of the table; rejects with every failure named when any bundle fails. */
export async function buildAll(groups: RouteGroup[] = routeGroups): Promise<Bundle[]> {
  const results = await buildEach(groups);
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
  const output = Object.values(bundle.metafile.outputs)[0];
  const sizes = new Map<string, number>();
  for (const [path, input] of Object.entries(output?.inputs ?? {})) {
    const name = packageOf(path);
    sizes.set(name, (sizes.get(name) ?? 0) + input.bytesInOutput);
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
