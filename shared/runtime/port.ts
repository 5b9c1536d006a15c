/** Spec part A, "Log lines": a runtime log line (`id` on the tail route). */
export interface RuntimeLogLine {
  t: number;
  level: 'error' | 'platform' | 'warn' | 'info' | 'debug';
  requestId?: string;
  message: string;
  truncated?: boolean;
  id: string;
}

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
   * Log lines between `from` and `to` (epoch ms), matching `q` (case-insensitive), at most
   * `limit`, in `order`; `more` is true when the limit cut the answer.
   */
  logs(
    deploymentId: string,
    query: { from: number; to: number; q?: string; limit: number; order: 'asc' | 'desc' },
  ): Promise<{ lines: RuntimeLogLine[]; more: boolean }>;
}
