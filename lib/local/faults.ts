import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setPortFaults } from '../../shared/ports/local-faults';

/**
 * The fault injector of the local platform: makes chosen calls of the outside systems fail the way
 * AWS fails them, so the platform's answers to a misbehaving backend can be tried on one machine.
 * For the engines (DynamoDB Local, the S3 server, the SQS endpoint) it is a proxy on the wire in
 * front of the endpoint, so the SDK meets the fault and retries as on AWS; for the ports whose
 * local adapter is code of ours (the scheduler, the builds port) it wraps the adapter
 * (shared/ports/local-faults.ts) and fails the call as the SDK would once its retries are spent.
 * It is off unless `npm start` is given `PLATFORM_FAULTS` (or a test starts one); it lives in
 * lib/local, so no Lambda bundle holds it.
 *
 * A rule names a service, an operation (DynamoDB's and SQS's `X-Amz-Target` action such as
 * `Query` or `SendMessage`; S3's HTTP method such as `GET`; the scheduler's `CreateSchedule` or
 * `DeleteSchedule`; the builds port's `StartBuild` or `StopBuild`; `*` for any), a fault, and how
 * often: `rate` (0..1, drawn per call) and at most `times` calls.
 */
export type FaultService = 'dynamodb' | 's3' | 'sqs' | 'scheduler' | 'builds';
/** The services behind an endpoint, faulted by a proxy (the others at their port). */
export const WIRE_SERVICES = ['dynamodb', 's3', 'sqs'] as const;
const PORT_SERVICES = ['scheduler', 'builds'] as const;

export type Fault =
  /** DynamoDB `ProvisionedThroughputExceededException`, S3 `SlowDown`, SQS `RequestThrottled`. */
  | 'throttle'
  /** DynamoDB `ThrottlingException` (the control plane's and on-demand tables' word). */
  | 'throttling'
  /** DynamoDB `TransactionCanceledException` whose reason is `ThrottlingError`. */
  | 'transaction-throttle'
  /** The service's own 500: DynamoDB `InternalServerError`, S3 `InternalError`, SQS `InternalError`. */
  | 'internal'
  /** 503 `ServiceUnavailable`. */
  | 'unavailable'
  /** No answer at all: the client's timeout decides (at a port: the SDK's `TimeoutError`). */
  | 'timeout'
  /** The call reaches the engine and is applied, then the connection is reset before the answer (the ambiguous case). */
  | 'reset-after-write'
  /** CodeBuild's `AccountLimitExceededException`: the account's concurrent builds are all taken (builds only). */
  | 'account-limit';

export interface FaultRule {
  service: FaultService;
  operation: string;
  fault: Fault;
  rate?: number;
  times?: number;
}

export interface FaultInjector {
  /** Replaces the rules (and their counts). */
  set(rules: FaultRule[]): void;
  /** Faults injected so far, per `service:operation:fault`. */
  readonly injected: Record<string, number>;
  stop(): Promise<void>;
}

export interface FaultProxy extends FaultInjector {
  readonly endpoint: string;
}

/** `dynamodb:Query:throttle:0.5:10,s3:*:unavailable` (rate and times optional) → rules. */
export function parseFaults(text: string): FaultRule[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((part) => {
      const [service, operation, fault, rate, times] = part.split(':');
      const services: string[] = [...WIRE_SERVICES, ...PORT_SERVICES];
      if (!services.includes(service ?? '') || !operation || !FAULTS.includes(fault as Fault)) {
        throw new Error(
          `PLATFORM_FAULTS: "${part}" is not service:operation:fault[:rate[:times]] (services ${services.join(', ')}; faults ${FAULTS.join(', ')}).`,
        );
      }
      const onlyAt = ONLY_AT[fault as Fault];
      if (onlyAt && !onlyAt.includes(service as FaultService)) {
        throw new Error(`PLATFORM_FAULTS: "${part}": the fault ${fault} is for ${onlyAt.join(', ')} only.`);
      }
      return {
        service: service as FaultService,
        operation,
        fault: fault as Fault,
        ...(rate ? { rate: Number(rate) } : {}),
        ...(times ? { times: Number(times) } : {}),
      };
    });
}

const FAULTS: Fault[] = [
  'throttle',
  'throttling',
  'transaction-throttle',
  'internal',
  'unavailable',
  'timeout',
  'reset-after-write',
  'account-limit',
];

/** Faults that only some services have. */
const ONLY_AT: Partial<Record<Fault, FaultService[]>> = {
  'transaction-throttle': ['dynamodb'],
  'reset-after-write': [...WIRE_SERVICES],
  'account-limit': ['builds'],
};

/** Chooses, per call, the fault of the first rule that applies (counting what it injected). */
function faultPicker(service: FaultService, injected: Record<string, number>) {
  let rules: (FaultRule & { used: number })[] = [];
  return {
    set(next: FaultRule[]) {
      rules = next.filter((r) => r.service === service).map((r) => ({ ...r, used: 0 }));
    },
    pick(operation: string): Fault | undefined {
      for (const rule of rules) {
        if (rule.operation !== '*' && rule.operation !== operation) continue;
        if (rule.times !== undefined && rule.used >= rule.times) continue;
        if (Math.random() >= (rule.rate ?? 1)) continue;
        rule.used++;
        const key = `${service}:${operation}:${rule.fault}`;
        injected[key] = (injected[key] ?? 0) + 1;
        return rule.fault;
      }
      return undefined;
    },
  };
}

/** The operation of a request: the JSON protocols' target action, or S3's method. */
function operationOf(service: FaultService, req: IncomingMessage): string {
  if (service === 's3') return req.method ?? 'GET';
  const target = String(req.headers['x-amz-target'] ?? '');
  return target.slice(target.lastIndexOf('.') + 1);
}

const DYNAMO = 'com.amazonaws.dynamodb.v20120810';

/** What AWS answers, per service and fault: status, content type and body. */
function answerOf(service: FaultService, fault: Fault): { status: number; type: string; body: string } {
  const json = (status: number, type: string, message: string, extra: Record<string, unknown> = {}) => ({
    status,
    type: 'application/x-amz-json-1.0',
    body: JSON.stringify({ __type: type, message, ...extra }),
  });
  const xml = (status: number, code: string, message: string) => ({
    status,
    type: 'application/xml',
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>fault</RequestId></Error>`,
  });
  if (service === 's3') {
    if (fault === 'throttle' || fault === 'throttling') return xml(503, 'SlowDown', 'Please reduce your request rate.');
    if (fault === 'unavailable') return xml(503, 'ServiceUnavailable', 'Service is unable to handle request.');
    return xml(500, 'InternalError', 'We encountered an internal error. Please try again.');
  }
  if (service === 'sqs') {
    if (fault === 'throttle' || fault === 'throttling')
      return json(400, 'com.amazonaws.sqs#RequestThrottled', 'Rate exceeded');
    if (fault === 'unavailable') return json(503, 'com.amazonaws.sqs#ServiceUnavailable', 'Service unavailable');
    return json(500, 'com.amazonaws.sqs#InternalError', 'Internal error');
  }
  switch (fault) {
    case 'throttle':
      return json(
        400,
        `${DYNAMO}#ProvisionedThroughputExceededException`,
        'The level of configured provisioned throughput for the table was exceeded.',
      );
    case 'throttling':
      return json(400, 'com.amazon.coral.availability#ThrottlingException', 'Throughput exceeds the current capacity.');
    case 'transaction-throttle':
      return json(
        400,
        `${DYNAMO}#TransactionCanceledException`,
        'Transaction cancelled, please refer cancellation reasons for specific reasons [ThrottlingError]',
        { CancellationReasons: [{ Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity.' }] },
      );
    case 'unavailable':
      return json(503, 'com.amazon.coral.availability#ServiceUnavailableException', 'Service unavailable');
    default:
      return json(500, `${DYNAMO}#InternalServerError`, 'Internal server error');
  }
}

/** Starts a fault proxy in front of `upstream` (an endpoint URL) on a free loopback port. */
export async function startFaultProxy(
  service: FaultService,
  upstream: string,
  initial: FaultRule[] = [],
): Promise<FaultProxy> {
  const target = new URL(upstream);
  const injected: Record<string, number> = {};
  const held = new Set<ServerResponse>();
  const { set, pick } = faultPicker(service, injected);
  set(initial);

  const forward = (
    req: IncomingMessage,
    body: Buffer,
    onAnswer: (up: IncomingMessage) => void,
    res: ServerResponse,
  ) => {
    const upstreamReq = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      onAnswer,
    );
    upstreamReq.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    upstreamReq.end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const fault = pick(operationOf(service, req));
      if (fault === undefined) {
        forward(
          req,
          body,
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
          },
          res,
        );
        return;
      }
      if (fault === 'timeout') {
        // Never answered: the client gives up (its request timeout) and the socket closes.
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      if (fault === 'reset-after-write') {
        forward(
          req,
          body,
          (up) => {
            up.resume();
            up.on('end', () => req.socket.destroy());
          },
          res,
        );
        return;
      }
      const answer = answerOf(service, fault);
      res.writeHead(answer.status, {
        'content-type': answer.type,
        'content-length': Buffer.byteLength(answer.body),
        'x-amzn-requestid': 'fault',
      });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    set,
    injected,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What the SDK throws, once its retries are spent, for a fault at a port: the service's error
 * name and status, with the `$metadata` every SDK error carries.
 */
function portError(service: FaultService, fault: Fault): Error {
  const error = (name: string, status: number | undefined, message: string, code?: string) =>
    Object.assign(new Error(message), {
      name,
      $fault: (status ?? 500) >= 500 ? 'server' : 'client',
      $metadata: { ...(status ? { httpStatusCode: status, requestId: 'fault' } : {}), attempts: 3 },
      ...(code ? { code } : {}),
    });
  switch (fault) {
    case 'throttle':
    case 'throttling':
      return error('ThrottlingException', 400, 'Rate exceeded');
    case 'account-limit':
      return error('AccountLimitExceededException', 400, 'Cannot have more than 60 active builds for the account');
    case 'unavailable':
      return error('ServiceUnavailableException', 503, 'Service unavailable');
    case 'timeout':
      return error('TimeoutError', undefined, `${service}: the request timed out`, 'ETIMEDOUT');
    default:
      return error('InternalServerException', 500, 'Internal server error');
  }
}

/**
 * Starts the injector at the ports whose local adapter is code of ours (the scheduler, the builds
 * port): their calls ask it first (shared/ports/local-faults.ts). One at a time per process; `stop`
 * takes it away.
 */
export function startPortFaults(initial: FaultRule[] = []): FaultInjector {
  const injected: Record<string, number> = {};
  const pickers = Object.fromEntries(
    PORT_SERVICES.map((service) => [service, faultPicker(service, injected)] as const),
  ) as Record<(typeof PORT_SERVICES)[number], ReturnType<typeof faultPicker>>;
  const set = (rules: FaultRule[]) => {
    for (const picker of Object.values(pickers)) picker.set(rules);
  };
  set(initial);
  setPortFaults((port, operation) => {
    const service = port as (typeof PORT_SERVICES)[number];
    const fault = pickers[service]?.pick(operation);
    return fault && portError(service, fault);
  });
  return {
    set,
    injected,
    stop: async () => setPortFaults(undefined),
  };
}
