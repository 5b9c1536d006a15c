import { join, relative } from 'node:path';
import type { Metafile } from 'esbuild';
import { routeGroups } from '../../lib/route-groups';
import { workerEntry, workers } from '../../lib/workers';
import { buildAll, bundleFile, bundleViolations, DIST, initialOutputs, ROOT, workerOutfile } from '../../scripts/build';

/**
 * The Lambda bundles, read from esbuild's metafile as `npm run build` and the stack make them:
 * no local adapter or local platform code in any of them (they load by computed paths, which the
 * bundler cannot follow), and no AWS SDK client but DynamoDB's in what a route group's function
 * loads at start (ports load theirs with the first route that needs them: code splitting).
 */
const entryOfBundle = (outfile: string) => relative(ROOT, outfile).split('\\').join('/');

it("route groups: no local code anywhere, only DynamoDB's client at start", async () => {
  const bundles = await buildAll(routeGroups);
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
}, 120_000);

it('workers: no local code anywhere', async () => {
  for (const w of workers) {
    const b = await bundleFile(w.name, workerEntry(w), workerOutfile(w.name));
    const local = bundleViolations(b.metafile, entryOfBundle(b.outfile)).filter((v) => !v.includes('at start'));
    expect({ [w.name]: local }).toEqual({ [w.name]: [] });
  }
}, 120_000);

it('the git function: no local code anywhere, only DynamoDB at start', async () => {
  const b = await bundleFile('git', 'functions/git/handler.ts', join(DIST, 'git', 'index.mjs'));
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
          'shared/storage/local.ts': { bytesInOutput: 5 },
          'node_modules/@aws-sdk/client-kms/dist-es/KMSClient.js': { bytesInOutput: 5 },
        },
        imports: [],
        exports: [],
      },
    },
  } as unknown as Metafile;
  expect(bundleViolations(metafile, 'dist/f/index.mjs')).toEqual([
    'dist/f/chunks/b.mjs holds shared/storage/local.ts',
    'dist/f/index.mjs loads @aws-sdk/client-s3 at start',
  ]);
});
