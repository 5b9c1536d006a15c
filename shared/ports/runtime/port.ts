import type { TailLogLine } from '../../domains/deployments/record-schemas';
import { config } from '../../kernel/config';
import { readEnv } from '../../kernel/ground/env';

/** Spec part A: function configuration constants (reported, not settable). */
export const FUNCTION_CONFIG = {
  memoryMb: 1024,
  timeoutSeconds: 30,
  architecture: 'arm64',
  runtime: 'nodejs22.x',
} as const;

/**
 * A runtime log line as the logs routes answer it (spec part A, "Log lines"): the deployments
 * domain's record schema `TailLogLine` is the source; its `id` is dropped where a route does not answer it.
 */
export type { TailLogLine };

/** `function` of `GET .../deployments/:deploymentId`. */
export interface FunctionInfo {
  region: string;
  name: string;
  memoryMb: number;
  timeoutSeconds: number;
  architecture: string;
  runtime: string;
}

export interface DeployFunctionInput {
  deploymentId: string;
  orgId: string;
  projectId: string;
  /** The built app: a local folder (moved into place), or a zip in S3 (AWS). */
  code: { dir: string } | { bucket: string; key: string };
  /** The file `node` runs, relative to the app folder. */
  entry: string;
  /** The target's variables, frozen with the function (running deployments keep them). */
  env: Record<string, string>;
}

/** An HTTP request for a server function, as the router got it (its body read: at most 6 MB on AWS). */
export interface FunctionRequest {
  method: string;
  /** The path, without the query. */
  path: string;
  /** The raw query string, without `?`. */
  query: string;
  headers: Record<string, string>;
  body: Buffer;
  /** The host the visitor asked for (`x-forwarded-host`). */
  host: string;
  sourceIp: string;
  requestId: string;
}

export interface FunctionResponse {
  status: number;
  headers: Record<string, string>;
  cookies: string[];
  body: Buffer;
}

/**
 * The server-function port: one function per deployment of a `node` or `nextjs` project.
 * AWS: a Lambda function (1024 MB, 30 s, arm64, nodejs22.x) running the app's HTTP server, its
 * logs in CloudWatch Logs. One machine: a child process started by the local edge when the first
 * request comes, its stdout and stderr kept as the runtime log.
 */
export interface RuntimePort {
  deploy(input: DeployFunctionInput): Promise<FunctionInfo>;
  exists(deploymentId: string): Promise<boolean>;
  /** Stops and deletes the function (idempotent). */
  remove(deploymentId: string): Promise<void>;
  /**
   * One request to the deployment's function and its whole answer (the router on AWS: Lambda's
   * Invoke with a function URL event, within its 6 MB payload; locally the function's process).
   * A function that fails or times out answers 502 or 504, never throws.
   */
  invoke(deploymentId: string, request: FunctionRequest): Promise<FunctionResponse>;
  /**
   * Log lines between `from` and `to` (epoch ms), matching `q` (case-insensitive), at most
   * `limit`, in `order`; `more` is true when the limit cut the answer.
   */
  logs(
    deploymentId: string,
    query: { from: number; to: number; q?: string; limit: number; order: 'asc' | 'desc' },
  ): Promise<{ lines: TailLogLine[]; more: boolean }>;
}

/** Functions are named `<prefix><deploymentId>`: the platform's grants are scoped to the prefix. */
export const functionName = (deploymentId: string) => `${readEnv('FUNCTION_PREFIX') ?? 'plt-fn-'}${deploymentId}`;

export const functionInfo = (deploymentId: string, region = config.region): FunctionInfo => ({
  region,
  name: functionName(deploymentId),
  ...FUNCTION_CONFIG,
});
