import {
  CloudWatchLogsClient,
  FilterLogEventsCommand,
  type FilterLogEventsCommandOutput,
} from '@aws-sdk/client-cloudwatch-logs';
import {
  CreateFunctionCommand,
  DeleteFunctionCommand,
  GetFunctionCommand,
  InvokeCommand,
  LambdaClient,
  waitUntilFunctionActiveV2,
} from '@aws-sdk/client-lambda';
import { linkedVariables } from '../../domains/resources/links';
import { config } from '../../kernel/config';
import { readEnv } from '../../kernel/ground/env';
import { sdkSettings } from '../../kernel/ground/sdk-settings';
import { arnParts, FUNCTION_POLICY, functionPolicy, LAMBDA_TRUST } from './function-role';
import { type Iam, IamError, iamClient } from './iam';
import type { DeployFunctionInput, FunctionRequest, FunctionResponse, RuntimePort, TailLogLine } from './port';
import { FUNCTION_CONFIG, functionInfo, functionName } from './port';

/**
 * Server functions on AWS: one Lambda function per deployment (`<FUNCTION_PREFIX><deploymentId>`,
 * 1024 MB, 30 s, arm64, nodejs22.x) from the zip the build wrote to the artifacts bucket. The
 * app is an ordinary HTTP server listening on `PORT`; the Lambda Web Adapter layer
 * (`WEB_ADAPTER_LAYER_ARN`) turns invocations into HTTP requests to it. The function's
 * configuration freezes its variables, so promote only moves the project's production pointer.
 * Its logs are its CloudWatch log group.
 *
 * Each function runs with a role of its own, named like it and made with it (function-role.ts):
 * it writes its own log group, and reaches the project's linked table and bucket, read from the
 * project's links (never from its variables, which the project sets), and nothing else. The
 * role is created under the stack's permissions boundary (`FUNCTION_BOUNDARY_ARN`) and removed
 * with the function.
 */

let lambda: LambdaClient | undefined;
let logs: CloudWatchLogsClient | undefined;
const lambdaClient = () => (lambda ??= new LambdaClient({}));
const logsClient = () => (logs ??= new CloudWatchLogsClient(sdkSettings('logs')));

const isNotFound = (err: unknown) => (err as Error).name === 'ResourceNotFoundException';
const iamIs = (err: unknown, code: string) => err instanceof IamError && err.code === code;
/** A new role is not assumable by Lambda for a few seconds (IAM is eventually consistent). */
const roleNotReady = (err: unknown) =>
  (err as Error).name === 'InvalidParameterValueException' && /cannot be assumed/i.test((err as Error).message);

export interface AwsRuntimeOptions {
  /** How long to wait between tries while a new role propagates, and how many tries. */
  roleWait?: { ms: number; tries: number };
}

/** The role of `name`, with its policy: created once, its policy rewritten on a retried deploy. */
async function ensureRole(iam: Iam, name: string, boundaryArn: string, policy: object): Promise<void> {
  try {
    await iam.createRole({ name, trustPolicy: LAMBDA_TRUST, boundaryArn, description: `Server function ${name}` });
  } catch (err) {
    if (!iamIs(err, 'EntityAlreadyExists')) throw err;
  }
  await iam.putRolePolicy(name, FUNCTION_POLICY, policy);
}

async function removeRole(iam: Iam, name: string): Promise<void> {
  for (const step of [() => iam.deleteRolePolicy(name, FUNCTION_POLICY), () => iam.deleteRole(name)]) {
    try {
      await step();
    } catch (err) {
      if (!iamIs(err, 'NoSuchEntity')) throw err;
    }
  }
}

/** `2024-01-01T00:00:00.000Z\t<request id>\tINFO\tmessage`: the Node runtime's line format. */
const RUNTIME_LINE = /^\S+\t([0-9a-f-]{36})\t(ERROR|WARN|INFO|DEBUG|TRACE|FATAL)\t([\s\S]*)$/;
const PLATFORM_LINE = /^(START|END|REPORT|INIT_START|INIT_REPORT|EXTENSION|TELEMETRY)\b/;

/** Reads a CloudWatch line as a runtime log line: level and request id from the runtime's format. */
export function parseLambdaLine(t: number, raw: string, id: string): TailLogLine {
  const message = raw.replace(/\n$/, '');
  const runtimeLine = RUNTIME_LINE.exec(message);
  if (runtimeLine) {
    const level = (runtimeLine[2] as string).toLowerCase();
    return {
      t,
      id,
      requestId: runtimeLine[1],
      level: level === 'fatal' ? 'error' : level === 'trace' ? 'debug' : (level as TailLogLine['level']),
      message: runtimeLine[3] as string,
    };
  }
  if (PLATFORM_LINE.test(message)) {
    const requestId = /RequestId: ([0-9a-f-]{36})/.exec(message)?.[1];
    return { t, id, level: 'platform', message, ...(requestId ? { requestId } : {}) };
  }
  return { t, id, level: 'info', message };
}

/** The function URL event (payload 2.0) the Lambda Web Adapter turns into the app's HTTP request. */
export function functionUrlEvent(fn: string, r: FunctionRequest) {
  const cookies = (r.headers.cookie ?? '').split(/;\s*/).filter(Boolean);
  const headers = { ...r.headers, host: r.host, 'x-forwarded-host': r.host, 'x-forwarded-proto': 'https' };
  delete (headers as Record<string, string | undefined>).cookie;
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: r.path,
    rawQueryString: r.query,
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    requestContext: {
      accountId: 'anonymous',
      apiId: fn,
      domainName: r.host,
      domainPrefix: r.host.split('.')[0],
      http: {
        method: r.method,
        path: r.path,
        protocol: 'HTTP/1.1',
        sourceIp: r.sourceIp,
        userAgent: r.headers['user-agent'] ?? '',
      },
      requestId: r.requestId,
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
    },
    body: r.body.toString('base64'),
    isBase64Encoded: true,
  };
}

const failed = (status: number, text: string): FunctionResponse => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  cookies: [],
  body: Buffer.from(text),
});

/** What the function answered (a function URL response), or 502 when it failed. */
export function functionUrlResponse(
  payload: Uint8Array | undefined,
  functionError: string | undefined,
): FunctionResponse {
  const text = Buffer.from(payload ?? new Uint8Array()).toString('utf8');
  if (functionError) {
    const timedOut = /timed out/i.test(text);
    return timedOut ? failed(504, 'The server function took too long.') : failed(502, 'The server function failed.');
  }
  let out: {
    statusCode?: number;
    headers?: Record<string, string>;
    cookies?: string[];
    body?: string;
    isBase64Encoded?: boolean;
  };
  try {
    out = JSON.parse(text);
  } catch {
    return failed(502, 'The server function answered something that is not HTTP.');
  }
  return {
    status: typeof out.statusCode === 'number' ? out.statusCode : 200,
    headers: out.headers ?? {},
    cookies: Array.isArray(out.cookies) ? out.cookies : [],
    body: Buffer.from(out.body ?? '', out.isBase64Encoded ? 'base64' : 'utf8'),
  };
}

export function awsRuntime(options: AwsRuntimeOptions = {}): RuntimePort {
  const roleWait = options.roleWait ?? { ms: 3000, tries: 20 };
  const iam = () => iamClient(config.region, () => lambdaClient().config.credentials());
  return {
    async deploy(input: DeployFunctionInput) {
      const code = input.code;
      if (!('bucket' in code)) throw new Error('The AWS runtime deploys zips from S3');
      const name = functionName(input.deploymentId);
      const boundary = readEnv('FUNCTION_BOUNDARY_ARN');
      if (!boundary) throw new Error('FUNCTION_BOUNDARY_ARN is not set');
      const { partition, account } = arnParts(boundary);
      const linked = await linkedVariables(input.orgId, input.projectId);
      const policy = functionPolicy({
        partition,
        account,
        region: config.region,
        functionName: name,
        table: linked.DATABASE_TABLE
          ? { name: linked.DATABASE_TABLE, region: linked.DATABASE_REGION ?? config.region }
          : undefined,
        bucket: linked.BUCKET_NAME,
      });
      await ensureRole(iam(), name, boundary, policy);
      const layer = readEnv('WEB_ADAPTER_LAYER_ARN');
      const create = new CreateFunctionCommand({
        FunctionName: name,
        Role: `arn:${partition}:iam::${account}:role/${name}`,
        Runtime: FUNCTION_CONFIG.runtime,
        Architectures: [FUNCTION_CONFIG.architecture],
        MemorySize: FUNCTION_CONFIG.memoryMb,
        Timeout: FUNCTION_CONFIG.timeoutSeconds,
        Handler: 'run.sh',
        Code: { S3Bucket: code.bucket, S3Key: code.key },
        Layers: layer ? [layer] : undefined,
        Environment: {
          Variables: {
            ...input.env,
            AWS_LAMBDA_EXEC_WRAPPER: '/opt/bootstrap',
            AWS_LWA_PORT: '8080',
            PORT: '8080',
            PLATFORM_ENTRY: input.entry,
          },
        },
        Tags: { 'platform:org': input.orgId, 'platform:project': input.projectId },
        Description: `Deployment ${input.deploymentId}`,
      });
      for (let tries = 1; ; tries++) {
        try {
          await lambdaClient().send(create);
          break;
        } catch (err) {
          // A retried worker finds the function it created before.
          if ((err as Error).name === 'ResourceConflictException') break;
          if (!roleNotReady(err) || tries >= roleWait.tries) {
            // No function, no role: a failed deployment leaves nothing behind.
            await removeRole(iam(), name).catch(() => undefined);
            throw err;
          }
          await new Promise((done) => setTimeout(done, roleWait.ms));
        }
      }
      await waitUntilFunctionActiveV2({ client: lambdaClient(), maxWaitTime: 120 }, { FunctionName: name });
      return functionInfo(input.deploymentId);
    },
    async exists(deploymentId) {
      try {
        await lambdaClient().send(new GetFunctionCommand({ FunctionName: functionName(deploymentId) }));
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    },
    async remove(deploymentId) {
      try {
        await lambdaClient().send(new DeleteFunctionCommand({ FunctionName: functionName(deploymentId) }));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      // Then its role (a static deployment never had one: nothing to delete is fine).
      await removeRole(iam(), functionName(deploymentId));
    },
    async invoke(deploymentId, request) {
      const name = functionName(deploymentId);
      try {
        const out = await lambdaClient().send(
          new InvokeCommand({
            FunctionName: name,
            Payload: Buffer.from(JSON.stringify(functionUrlEvent(name, request))),
          }),
        );
        return functionUrlResponse(out.Payload, out.FunctionError);
      } catch (err) {
        if (isNotFound(err)) return failed(502, 'The server function is gone.');
        if ((err as Error).name === 'RequestTooLargeException') return failed(413, 'The request is too large.');
        throw err;
      }
    },
    async logs(deploymentId, query) {
      const needle = query.q?.toLowerCase();
      const lines: TailLogLine[] = [];
      let nextToken: string | undefined;
      // Newest first needs the end of the window: read it in pages, keep the last `limit + 1`.
      for (let page = 0; page < 20; page++) {
        let out: FilterLogEventsCommandOutput;
        try {
          out = await logsClient().send(
            new FilterLogEventsCommand({
              logGroupName: `/aws/lambda/${functionName(deploymentId)}`,
              startTime: query.from,
              endTime: query.to,
              nextToken,
              limit: 1000,
            }),
          );
        } catch (err) {
          if (isNotFound(err)) break;
          throw err;
        }
        for (const e of out.events ?? []) {
          const line = parseLambdaLine(e.timestamp ?? 0, e.message ?? '', e.eventId ?? '');
          if (!needle || line.message.toLowerCase().includes(needle)) lines.push(line);
        }
        if (query.order === 'asc' && lines.length > query.limit) break;
        if (query.order === 'desc' && lines.length > 4 * query.limit) lines.splice(0, lines.length - query.limit - 1);
        nextToken = out.nextToken;
        if (!nextToken) break;
      }
      const ordered = query.order === 'desc' ? lines.reverse() : lines;
      return { lines: ordered.slice(0, query.limit), more: ordered.length > query.limit };
    },
  };
}
