import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readEnv } from '../ground/env';

/**
 * Where the one-machine platform keeps deployment files, under `DATA_DIR` (read on every call:
 * the local platform and the tests set it before the first build):
 *
 * | path | what |
 * |---|---|
 * | `deployments/<id>/build.log` | the build log, one JSON line `{t, m}` per line |
 * | `deployments/<id>/manifest.json` | what the build left (static or server, its entry, its figures) |
 * | `deployments/<id>/static/` | the static output the edge serves |
 * | `deployments/<id>/function/` | the server function's `function.json` (its variables) and `runtime.log` |
 * | `cache/<projectId>/deps/<key>/` | the dependency cache of a project, one folder per lock file |
 *
 * Tenant code never runs inside `DATA_DIR` (private to the platform): its folders are under the
 * tenant root (`TENANT_DIR`, else `<tmp>/platform-tenants`), one per deployment, each closed to
 * every other tenant (shared/kernel/tenancy/sandbox.ts):
 *
 * | path | what |
 * |---|---|
 * | `builds/<id>/` | the build's home; `src/` the unpacked source while it builds (removed afterwards) |
 * | `builds/<id>/function/` | a built server, staged until the runtime moves it to `functions/<id>/app/` |
 * | `functions/<id>/app/` | the server function's app, its working folder while it runs |
 */
export function dataDir(): string {
  return resolve(readEnv('DATA_DIR') ?? '.data');
}

/** Where tenant code's folders live (outside DATA_DIR). */
export const tenantRoot = () => readEnv('TENANT_DIR') ?? join(tmpdir(), 'platform-tenants');

const dir = (deploymentId: string) => join(dataDir(), 'deployments', assertSafeId(deploymentId));

export const localPaths = {
  deployment: dir,
  buildLog: (deploymentId: string) => join(dir(deploymentId), 'build.log'),
  manifest: (deploymentId: string) => join(dir(deploymentId), 'manifest.json'),
  work: (deploymentId: string) => join(tenantRoot(), 'builds', assertSafeId(deploymentId)),
  stagedFunction: (deploymentId: string) => join(tenantRoot(), 'builds', assertSafeId(deploymentId), 'function'),
  app: (deploymentId: string) => join(tenantRoot(), 'functions', assertSafeId(deploymentId), 'app'),
  static: (deploymentId: string) => join(dir(deploymentId), 'static'),
  function: (deploymentId: string) => join(dir(deploymentId), 'function'),
  depsCache: (projectId: string) => join(dataDir(), 'cache', assertSafeId(projectId), 'deps'),
};

/** Deployment ids are `dpl_` + Crockford base32: anything else never becomes a path. */
export function assertSafeId(id: string): string {
  if (!/^[a-z]{2,4}_[0-9a-z]{10,64}$/.test(id)) throw new Error(`Unsafe id ${JSON.stringify(id)}`);
  return id;
}
