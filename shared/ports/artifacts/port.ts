import type { BuildMetrics } from '../../domains/deployments/schema';
import type { DeployFunctionInput } from '../runtime/port';

/**
 * What a build says of its output (`manifest.json` beside it): a static site or a server (and the
 * file it starts), and what the build measured. A failed build may leave one with its figures only.
 */
export interface BuildManifest {
  kind?: 'static' | 'server';
  entry?: string;
  metrics?: BuildMetrics;
}

/**
 * A file of a deployment's static output as the edge serves it: the file for the path (exact,
 * folder index, `.html`), or the output's `404.html` with status 404.
 */
export interface StaticFile {
  status: 200 | 404;
  contentType: string;
  size: number;
  body: ReadableStream<Uint8Array> | NodeJS.ReadableStream;
}

/**
 * The artifacts port: what builds leave behind. AWS: objects of the artifacts bucket
 * (`artifacts/<deploymentId>/`: the static output, `manifest.json` and the function package
 * `function.zip`; `cache/<projectId>/`: the dependency cache); build logs are in CloudWatch Logs
 * with their own retention. One machine: folders under `DATA_DIR` (shared/kernel/tenancy/paths.ts),
 * the build log and the manifest beside the output, the server's folder staged in the build's
 * tenant folder until the runtime takes it.
 */
export interface ArtifactsPort {
  /** The build's manifest; undefined when it left none. */
  readManifest(deploymentId: string): Promise<BuildManifest | undefined>;
  /** Where the server function's code is, as the runtime port takes it. */
  functionCode(deploymentId: string): Promise<DeployFunctionInput['code']>;
  /** Deletes what a deployment serves (static files, function package); its build log stays. */
  removeOutput(deploymentId: string): Promise<void>;
  /** Deletes everything a deployment's build left, its build log included where it is kept here. */
  removeDeployment(deploymentId: string): Promise<void>;
  /** Deletes a project's dependency cache. */
  removeCache(projectId: string): Promise<void>;
  /** The static file a URL path names (undefined: none, and no `404.html`; a bad path is none). */
  readStatic(deploymentId: string, urlPath: string): Promise<StaticFile | undefined>;
}
