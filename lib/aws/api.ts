import { Duration, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CorsHttpMethod, HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { GroupFunction } from './group-function';
import { acknowledge } from './nag';

export interface PlatformApiProps {
  /** One function per route group, in the order of the route-group table. */
  functions: GroupFunction[];
  corsOrigins: string[];
  throttle?: { rateLimit: number; burstLimit: number };
}

/**
 * The HTTP API: `ANY <prefix>` and `ANY <prefix>/{proxy+}` for every prefix of every group, the
 * fallback group behind `$default`. Each group's function then routes within itself, so API
 * Gateway's "most specific route wins" and the local gateway pick the same group.
 */
export class PlatformApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: logs.LogGroup;

  constructor(scope: Construct, id: string, props: PlatformApiProps) {
    super(scope, id);

    const targets = props.functions.map((f) => ({
      group: f.group,
      // One permission per function (any route of this API), not one per route: a stack holds at
      // most 500 resources, and the routes' permissions alone were over a hundred.
      integration: new HttpLambdaIntegration(`${f.node.id}Integration`, f.fn, { scopePermissionToRoute: false }),
    }));

    this.api = new HttpApi(this, 'HttpApi', {
      apiName: Stack.of(this).stackName,
      description: 'Platform API',
      defaultIntegration: targets.find((t) => t.group.fallback)?.integration,
      corsPreflight: {
        allowOrigins: props.corsOrigins,
        allowMethods: [
          CorsHttpMethod.GET,
          CorsHttpMethod.POST,
          CorsHttpMethod.PUT,
          CorsHttpMethod.PATCH,
          CorsHttpMethod.DELETE,
        ],
        // What the web app (lib/aws/web-app.ts) sends and reads of the API: conditional and
        // idempotent writes, ETags, rate limits, where a create went. A preflight is kept 2 hours
        // (Chromium's longest), so not every call pays for one.
        allowHeaders: ['authorization', 'content-type', 'if-match', 'if-none-match', 'idempotency-key'],
        exposeHeaders: [
          'etag',
          'location',
          'retry-after',
          'idempotent-replayed',
          'ratelimit-limit',
          'ratelimit-remaining',
          'ratelimit-reset',
        ],
        maxAge: Duration.hours(2),
      },
      // The stage is made below: HttpApi's own default stage takes no logging or throttling options.
      createDefaultStage: false,
    });

    for (const { group, integration } of targets) {
      for (const prefix of group.prefixes) {
        this.api.addRoutes({ path: prefix, methods: [HttpMethod.ANY], integration });
        this.api.addRoutes({ path: `${prefix}/{proxy+}`, methods: [HttpMethod.ANY], integration });
      }
    }

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle ?? { rateLimit: 100, burstLimit: 200 },
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            requestTime: '$context.requestTime',
            ip: '$context.identity.sourceIp',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latency: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });

    acknowledge(
      this.api,
      'AwsSolutions-APIG4',
      'Authorization is done in the functions (JWTs from the identity provider, API keys, agent keys and ' +
        'device tokens, per the spec), not by an API Gateway authorizer; GET /health is public by design.',
    );
  }
}
