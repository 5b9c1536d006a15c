import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Metafile } from 'esbuild';
import { bundleFunctionSync } from '../../lib/aws/bundle-sync';
import { type FunctionBundler, functionBundler } from '../../lib/bundle';
import { entryOf, routeGroups } from '../../lib/route-groups';
import { workerEntry, workers } from '../../lib/workers';
import { firstAnswerTime, firstRequests, importTime } from '../../scripts/bench/cold';
import {
  type Bundle,
  buildAll,
  bundleEach,
  bundleFile,
  bundleViolations,
  DIST,
  initialOutputs,
  ROOT,
  workerOutfile,
} from '../../scripts/build';

/**
 * The Lambda bundles, read from esbuild's metafile as `npm run build` and the stack make them:
 * no local adapter or local platform code in any of them (they load by computed paths, which the
 * bundler cannot follow), and no AWS SDK client but DynamoDB's in what a route group's function
 * loads at start (ports load theirs with the first route that needs them: code splitting).
 */
const entryOfBundle = (outfile: string) => relative(ROOT, outfile).split('\\').join('/');

/**
 * One esbuild context for the file's bundles (lib/bundle.ts functionBundler): the workers' and the
 * git function's reuse what it parsed for the route groups'.
 */
let sharedBundler: Promise<FunctionBundler> | undefined;
const bundler = () => {
  sharedBundler ??= functionBundler({ absWorkingDir: ROOT, logLevel: 'silent' });
  return sharedBundler;
};
afterAll(async () => {
  await (await sharedBundler)?.dispose();
});

/** Every route group's bundle, built once for the tests below that read or run them. */
let built: Promise<Bundle[]> | undefined;
const routeBundles = () => {
  built ??= bundler().then((b) => buildAll(routeGroups, b));
  return built;
};

it("route groups: no local code anywhere, only DynamoDB's client at start", async () => {
  const bundles = await routeBundles();
  expect(bundles.map((b) => b.name)).toEqual(routeGroups.map((g) => g.name));
  for (const b of bundles)
    expect({ [b.name]: bundleViolations(b.metafile, entryOfBundle(b.outfile)) }).toEqual({ [b.name]: [] });
  // What the routes need later is there, in chunks of its own.
  const deployments = bundles.find((b) => b.name === 'deployments');
  expect(deployments?.totalBytes).toBeGreaterThan((deployments?.bytes ?? 0) * 1.5);
  // A group's routes load with their first request (functions/<group>/route-index.ts): at start,
  // nothing of the group's folder but its handler and its index.
  for (const b of bundles) {
    const atStart = initialOutputs(b.metafile, entryOfBundle(b.outfile)).flatMap((o) =>
      Object.keys(b.metafile.outputs[o]?.inputs ?? {}),
    );
    const own = atStart.filter((i) => i.startsWith(`functions/${b.name}/`)).sort();
    expect({ [b.name]: own }).toEqual({
      [b.name]: [`functions/${b.name}/handler.ts`, `functions/${b.name}/route-index.ts`],
    });
  }
  // The shape of the start (lib/bundle.ts): the entry and one chunk of code (esbuild may add a chunk
  // of its own helpers, with no input); no zod (it loads with the route modules, which set its
  // English messages); none of the SDK's XML or query protocols, which only S3, SES and SQS use
  // (lib/bundle-barrels.ts; before, a function whose routes used S3 later loaded them at start).
  for (const b of bundles) {
    const start = initialOutputs(b.metafile, entryOfBundle(b.outfile));
    const withCode = start.filter(
      (o) => o !== entryOfBundle(b.outfile) && Object.keys(b.metafile.outputs[o]?.inputs ?? {}).length > 0,
    );
    const inputs = start.flatMap((o) => Object.keys(b.metafile.outputs[o]?.inputs ?? {}));
    expect({
      [b.name]: { chunks: withCode.length, zod: inputs.filter((i) => i.includes('node_modules/zod/')).length },
    }).toEqual({
      [b.name]: { chunks: 1, zod: 0 },
    });
    expect({ [b.name]: inputs.filter((i) => /submodules\/protocols\/(xml|query)\//.test(i)) }).toEqual({
      [b.name]: [],
    });
    // DynamoDB's document client commands at start are the reads authentication makes: queries and
    // writes load with the route modules and workers that send them (shared/kernel/store/ops.ts). Before,
    // DynamoDB's `export *` indexes and the store's one module put every command any chunk used here.
    const commands = inputs.flatMap((i) => /lib-dynamodb\/dist-es\/commands\/(\w+Command)\.js$/.exec(i)?.[1] ?? []);
    expect({ [b.name]: commands.sort() }).toEqual({ [b.name]: ['BatchGetCommand', 'GetCommand'] });
  }
  // The options of lib/bundle.ts, which the stack's bundling uses too (the CDK test below): ESM with
  // the require banner, code split into chunks, each minified (long lines, not one statement a line).
  for (const b of bundles) {
    expect(readFileSync(b.outfile, 'utf8').startsWith("import{createRequire as __cr}from'module';")).toBe(true);
    const chunkDir = join(dirname(b.outfile), 'chunks');
    const chunks = readdirSync(chunkDir);
    expect({ [b.name]: chunks.length > 0 }).toEqual({ [b.name]: true });
    const js = [b.outfile, ...chunks.map((c) => join(chunkDir, c))].map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(js.length / js.split('\n').length).toBeGreaterThan(1000);
  }
  // The first test of the file builds the 25 route bundles the others share: on a busy 2-core
  // machine that alone passed two minutes twice.
}, 300_000);

it("every function's bundle starts and answers its first route's request, whose module it loads then", async () => {
  const bundles = await routeBundles();
  const firsts = await firstRequests(routeGroups.map((g) => g.name));
  // firstAnswerTime runs the bundle in a fresh node process and throws unless it answers 401 (no credential).
  for (const b of bundles) await expect(firstAnswerTime(b.outfile, firsts[b.name])).resolves.toHaveProperty('ms');
}, 180_000);

it('workers: no local code anywhere, and each starts', async () => {
  // Bundled by one esbuild context (the files they share parsed once), then checked and started one by one.
  const bundles = await bundleEach(
    workers.map((w) => ({ name: w.name, entry: workerEntry(w), outfile: workerOutfile(w.name) })),
    await bundler(),
  );
  for (const [i, w] of workers.entries()) {
    const result = bundles[i];
    if (!result || 'error' in result) throw new Error(`${w.name}: ${result?.error ?? 'not bundled'}`);
    const b = result.bundle;
    const local = bundleViolations(b.metafile, entryOfBundle(b.outfile)).filter((v) => !v.includes('at start'));
    expect({ [w.name]: local }).toEqual({ [w.name]: [] });
    // It links and starts: a fresh node process imports it (its chunks, shaped by lib/bundle.ts).
    await expect(importTime(b.outfile)).resolves.toHaveProperty('ms');
  }
}, 120_000);

it("CDK's synchronous bundling (lib/aws/bundle-sync.ts) makes what npm run build makes, and names a failing entry", async () => {
  const core = routeGroups.find((g) => g.name === 'core');
  if (!core) throw new Error('no core group');
  const built = await bundleFile('core', entryOf(core), join(DIST, 'sync-check', 'build', 'index.mjs'));
  const outdir = join(DIST, 'sync-check', 'cdk');
  rmSync(outdir, { recursive: true, force: true });
  // Another function first: core is the second of the synth's esbuild context, made from what it kept.
  const orgs = routeGroups.find((g) => g.name === 'orgs');
  if (!orgs) throw new Error('no orgs group');
  bundleFunctionSync({
    entry: join(ROOT, entryOf(orgs)),
    outdir: join(DIST, 'sync-check', 'orgs'),
    absWorkingDir: ROOT,
  });
  bundleFunctionSync({ entry: join(ROOT, entryOf(core)), outdir, absWorkingDir: ROOT });
  const files = (dir: string) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile() && f.name !== 'meta.json')
      .map((f) => relative(dir, join(f.parentPath, f.name)))
      .sort();
  const buildDir = dirname(built.outfile);
  expect(files(outdir)).toEqual(files(buildDir));
  expect(readFileSync(join(outdir, 'index.mjs'), 'utf8')).toBe(readFileSync(built.outfile, 'utf8'));
  expect(() =>
    bundleFunctionSync({
      entry: join(ROOT, 'functions/nope/handler.ts'),
      outdir: join(outdir, 'x'),
      absWorkingDir: ROOT,
    }),
  ).toThrow(/Bundling .*functions\/nope\/handler\.ts failed/);
}, 120_000);

it('the git function: no local code anywhere, only DynamoDB at start', async () => {
  const b = await bundleFile('git', 'functions/git/handler.ts', join(DIST, 'git', 'index.mjs'), await bundler());
  expect(bundleViolations(b.metafile, entryOfBundle(b.outfile))).toEqual([]);
}, 120_000);

it('the check catches a local adapter in a chunk and a second SDK client at start', () => {
  const metafile = {
    inputs: {},
    outputs: {
      'dist/f/index.mjs': {
        bytes: 10,
        inputs: { 'node_modules/@aws-sdk/client-dynamodb/dist-es/index.js': { bytesInOutput: 5 } },
        imports: [
          { path: 'dist/f/chunks/a.mjs', kind: 'import-statement' },
          { path: 'dist/f/chunks/b.mjs', kind: 'dynamic-import' },
        ],
        exports: [],
      },
      'dist/f/chunks/a.mjs': {
        bytes: 10,
        inputs: { 'node_modules/@aws-sdk/client-s3/dist-es/S3Client.js': { bytesInOutput: 5 } },
        imports: [],
        exports: [],
      },
      'dist/f/chunks/b.mjs': {
        bytes: 10,
        inputs: {
          'shared/ports/object-storage/local.ts': { bytesInOutput: 5 },
          'node_modules/@aws-sdk/client-kms/dist-es/KMSClient.js': { bytesInOutput: 5 },
        },
        imports: [],
        exports: [],
      },
    },
  } as unknown as Metafile;
  expect(bundleViolations(metafile, 'dist/f/index.mjs')).toEqual([
    'dist/f/chunks/b.mjs holds shared/ports/object-storage/local.ts',
    'dist/f/index.mjs loads @aws-sdk/client-s3 at start',
  ]);
});
