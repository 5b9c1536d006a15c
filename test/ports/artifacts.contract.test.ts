import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { localPaths } from '../../shared/kernel/tenancy/paths';
import { awsArtifacts } from '../../shared/ports/artifacts/aws';
import { localArtifacts } from '../../shared/ports/artifacts/local';
import type { ArtifactsPort } from '../../shared/ports/artifacts/port';
import { storage } from '../../shared/ports/object-storage';

/**
 * The artifacts port's contract, held by both adapters on their real engines: the AWS adapter on
 * the local S3 server (the artifacts bucket), the local one on the file system. What one
 * deployment or project loses, no other loses.
 */

interface Engine {
  /** Leaves what a build of `deploymentId` (project `projectId`) leaves, with `files` output files. */
  seed(deploymentId: string, projectId: string, files: number): Promise<void>;
  /** What is left, as paths relative to the engine's root. */
  left(): Promise<string[]>;
  /** The left paths of one deployment's output, of one deployment, and of one project's cache. */
  output(deploymentId: string): (path: string) => boolean;
  deployment(deploymentId: string): (path: string) => boolean;
  cache(projectId: string): (path: string) => boolean;
}

let n = 0;
const id = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(n++).toString(36).padStart(4, '0')}`;

function s3Engine(): Engine {
  const bucket = { name: `artifacts-contract-${Date.now().toString(36)}-${n++}` };
  process.env.ARTIFACTS_BUCKET = bucket.name;
  const created = storage().createBucket(bucket.name);
  const put = async (key: string) => {
    await created;
    const url = await storage().presignPut(bucket, key, { contentType: 'text/plain', size: 1, expiresIn: 60 });
    const res = await fetch(url, { method: 'PUT', body: 'x', headers: { 'content-type': 'text/plain' } });
    if (!res.ok) throw new Error(`put ${key}: ${res.status}`);
  };
  return {
    seed: async (deploymentId, projectId, files) => {
      for (let i = 0; i < files; i++) await put(`artifacts/${deploymentId}/static/f${i}.txt`);
      await put(`artifacts/${deploymentId}/manifest.json`);
      await put(`cache/${projectId}/deps/abc.tar`);
    },
    left: async () => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await storage().listKeys(bucket, '', 1000, token);
        keys.push(...page.keys.map((k) => k.key));
        token = page.nextToken;
      } while (token);
      return keys;
    },
    output: (d) => (p) => p.startsWith(`artifacts/${d}/`),
    deployment: (d) => (p) => p.startsWith(`artifacts/${d}/`),
    cache: (projectId) => (p) => p.startsWith(`cache/${projectId}/`),
  };
}

function filesEngine(): Engine {
  const root = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'artifacts-'));
  process.env.DATA_DIR = root;
  const write = (path: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'x');
  };
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : [relative(root, join(dir, e.name))],
    );
  const under = (dir: string) => (p: string) => join(root, p).startsWith(`${dir}/`);
  return {
    seed: async (deploymentId, projectId, files) => {
      for (let i = 0; i < files; i++) write(join(localPaths.static(deploymentId), `f${i}.txt`));
      write(localPaths.buildLog(deploymentId));
      write(join(localPaths.depsCache(projectId), 'abc', 'node_modules', 'x.js'));
    },
    left: async () => walk(root),
    output: (d) => under(localPaths.static(d)),
    deployment: (d) => under(localPaths.deployment(d)),
    cache: (projectId) => under(dirname(localPaths.depsCache(projectId))),
  };
}

describe.each([
  { name: 'aws adapter on the S3 server', engine: s3Engine, port: awsArtifacts },
  { name: 'local adapter on the file system', engine: filesEngine, port: localArtifacts },
])('the artifacts port: $name', ({ engine: makeEngine, port: makePort }) => {
  let engine: Engine;
  let port: ArtifactsPort;
  const [a, b] = [id('dpl'), id('dpl')];
  const [pa, pb] = [id('prj'), id('prj')];

  beforeAll(async () => {
    engine = makeEngine();
    port = makePort();
    // More than one page of the S3 listing (1,000 keys) for the first deployment.
    await engine.seed(a, pa, 1001);
    await engine.seed(b, pb, 2);
  });

  /** Runs `remove` and answers what it took: the paths that were there before and are gone. */
  async function removed(remove: () => Promise<void>): Promise<(path: string) => boolean> {
    const before = await engine.left();
    await remove();
    const after = new Set(await engine.left());
    const gone = new Set(before.filter((p) => !after.has(p)));
    return (p) => gone.has(p);
  }

  it('removes one deployment’s output, every page of it, and nothing else', async () => {
    const before = await engine.left();
    const gone = await removed(() => port.removeOutput(a));
    expect(before.filter(engine.output(a)).length).toBeGreaterThan(1000);
    expect(before.filter(engine.output(a)).every(gone)).toBe(true);
    expect(before.filter((p) => !engine.deployment(a)(p)).some(gone)).toBe(false);
  });

  it('removes everything one deployment left, and nothing of another', async () => {
    const gone = await removed(() => port.removeDeployment(a));
    const left = await engine.left();
    expect(left.filter(engine.deployment(a))).toEqual([]);
    expect(left.filter(engine.deployment(b)).length).toBeGreaterThan(0);
    expect(left.filter(engine.deployment(b)).some(gone)).toBe(false);
  });

  it('removes one project’s cache and keeps the other’s', async () => {
    const before = await engine.left();
    const gone = await removed(() => port.removeCache(pa));
    expect(before.filter(engine.cache(pa))).toHaveLength(1);
    expect(before.filter(engine.cache(pa)).every(gone)).toBe(true);
    expect(before.filter((p) => !engine.cache(pa)(p)).some(gone)).toBe(false);
  });

  it('is idempotent: removing what is gone succeeds', async () => {
    await expect(port.removeDeployment(a)).resolves.toBeUndefined();
    await expect(port.removeCache(pa)).resolves.toBeUndefined();
  });
});
