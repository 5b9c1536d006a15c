import * as path from 'node:path';
import { Annotations, CfnOutput, Duration, Stack, Token } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as targets from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import type { Need } from '../../shared/kernel/needs';
import { type Grantable, grantNeeds } from './grants';
import { PlatformFunction } from './group-function';
import { acknowledge } from './nag';

/** What the router reaches: the registry and deployments, static outputs, server functions. */
export const ROUTER_NEEDS: Need[] = ['table', 'artifactsRead', 'functionsInvoke'];

export interface ServingProps {
  projectRoot: string;
  environment: Record<string, string>;
  platform: Grantable;
  /** Deployments' hosts are `<name>.<appsDomain>`. */
  appsDomain: string;
  /** The Route 53 zone of `appsDomain`: the certificate's validation and the `*` record. */
  appsHostedZoneId: string;
  /**
   * A certificate for `*.<appsDomain>` in us-east-1 (CloudFront's region). None: made here, which
   * works when the stack itself is in us-east-1.
   */
  appsCertificateArn?: string;
}

/** Copies the visitor's Host where the origin can read it (the function URL sees its own host). */
const FORWARD_HOST = `function handler(event) {
  var request = event.request;
  request.headers['x-forwarded-host'] = { value: request.headers.host ? request.headers.host.value : '' };
  return request;
}`;

/**
 * Serving deployed sites on AWS: the router (functions/router/handler.ts: the local edge's host
 * lookup, static output from S3, server functions invoked) behind a function URL that only
 * CloudFront may call (IAM auth, origin access control); in front, two distributions on it:
 * `*.<appsDomain>` with a wildcard certificate, and a multi-tenant one (CloudFront SaaS Manager)
 * whose tenants are the custom domains, each with a CloudFront-managed certificate (shared/ports/cdn),
 * reached through a connection group's routing endpoint (the CNAME domains point to). Promote is
 * one write: the router keeps routes 5 seconds, and static answers say `s-maxage=5`.
 */
export class PlatformServing extends Construct {
  readonly router: PlatformFunction;
  readonly url: lambda.FunctionUrl;
  readonly apps: cloudfront.Distribution;
  readonly tenants: cloudfront.Distribution;
  readonly connectionGroup: cloudfront.CfnConnectionGroup;

  constructor(scope: Construct, id: string, props: ServingProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.router = new PlatformFunction(this, 'Router', {
      entry: path.join(props.projectRoot, 'functions', 'router', 'handler.ts'),
      projectRoot: props.projectRoot,
      description: 'Serves deployed sites: static output from S3, server functions invoked',
      roleDescription: 'The router of deployed sites',
      environment: props.environment,
      // A server function's own limit, and a little more.
      timeout: Duration.seconds(35),
    });
    grantNeeds(this.router, ROUTER_NEEDS, props.platform);
    this.url = this.router.fn.addFunctionUrl({
      authType: lambda.FunctionUrlAuthType.AWS_IAM,
      invokeMode: lambda.InvokeMode.RESPONSE_STREAM,
    });
    const origin = origins.FunctionUrlOrigin.withOriginAccessControl(this.url, {
      readTimeout: Duration.seconds(30),
    });
    const forwardHost = new cloudfront.Function(this, 'ForwardHost', {
      code: cloudfront.FunctionCode.fromInline(FORWARD_HOST),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: "Copies the visitor's Host to x-forwarded-host for the router",
    });
    const behavior: cloudfront.BehaviorOptions = {
      origin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      // Cached by the router's own Cache-Control (static files seconds, hashed assets a year).
      cachePolicy: new cloudfront.CachePolicy(this, 'ByHost', {
        comment: 'Static answers per host and path, as long as the router says',
        defaultTtl: Duration.seconds(0),
        minTtl: Duration.seconds(0),
        maxTtl: Duration.days(365),
        headerBehavior: cloudfront.CacheHeaderBehavior.allowList('x-forwarded-host'),
        queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
        cookieBehavior: cloudfront.CacheCookieBehavior.none(),
        enableAcceptEncodingGzip: true,
        enableAcceptEncodingBrotli: true,
      }),
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      functionAssociations: [{ function: forwardHost, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      compress: true,
    };
    const zone = route53.HostedZone.fromHostedZoneAttributes(this, 'Zone', {
      hostedZoneId: props.appsHostedZoneId,
      zoneName: props.appsDomain,
    });
    const wildcard = `*.${props.appsDomain}`;
    if (!props.appsCertificateArn && !Token.isUnresolved(stack.region) && stack.region !== 'us-east-1') {
      Annotations.of(this).addError(
        `CloudFront's certificate for ${wildcard} must be in us-east-1: deploy there or give -c appsCertificateArn=…`,
      );
    }
    const certificate = props.appsCertificateArn
      ? acm.Certificate.fromCertificateArn(this, 'Certificate', props.appsCertificateArn)
      : new acm.Certificate(this, 'Certificate', {
          domainName: wildcard,
          validation: acm.CertificateValidation.fromDns(zone),
        });
    this.apps = new cloudfront.Distribution(this, 'Apps', {
      comment: `Deployed sites at ${wildcard}`,
      domainNames: [wildcard],
      certificate,
      defaultBehavior: behavior,
      minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
    });
    new route53.ARecord(this, 'AppsRecord', {
      zone,
      recordName: wildcard,
      target: route53.RecordTarget.fromAlias(new targets.CloudFrontTarget(this.apps)),
    });

    // Custom domains: tenants of a multi-tenant distribution (no domains or certificate of its own).
    this.tenants = new cloudfront.Distribution(this, 'Tenants', {
      comment: 'Deployed sites at their custom domains (one tenant each)',
      defaultBehavior: behavior,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
    });
    const cfn = this.tenants.node.defaultChild as cloudfront.CfnDistribution;
    cfn.addPropertyOverride('DistributionConfig.ConnectionMode', 'tenant-only');
    // Settings a multi-tenant distribution does not take (it serves from every edge location).
    cfn.addPropertyDeletionOverride('DistributionConfig.PriceClass');
    cfn.addPropertyDeletionOverride('DistributionConfig.IPV6Enabled');
    this.connectionGroup = new cloudfront.CfnConnectionGroup(this, 'Connections', {
      name: `${stack.stackName}-domains`.slice(0, 64),
      enabled: true,
      ipv6Enabled: true,
    });

    for (const d of [this.apps, this.tenants]) {
      acknowledge(d, 'AwsSolutions-CFR1', 'Sites are served worldwide: no geo restriction.');
      acknowledge(
        d,
        'AwsSolutions-CFR2',
        "WAF is the tenants' choice (a web ACL per tenant), not the platform's default.",
      );
      acknowledge(
        d,
        'AwsSolutions-CFR3',
        "CloudFront's standard logs need an ACL-enabled bucket; requests are counted by the platform's analytics.",
      );
    }
    acknowledge(
      this.tenants,
      'AwsSolutions-CFR4',
      "Each tenant has its own managed certificate (TLS 1.2 at least); the distribution's own is never used.",
    );
    new CfnOutput(stack, 'AppsDistribution', { value: this.apps.distributionDomainName });
    new CfnOutput(stack, 'DomainsRoutingEndpoint', { value: this.connectionGroup.attrRoutingEndpoint });
  }

  /** What grants of the `cdn` need read (lib/aws/grants.ts). */
  get cdn(): NonNullable<Grantable['serving']> {
    return {
      distributionId: this.tenants.distributionId,
      distributionArn: Stack.of(this).formatArn({
        service: 'cloudfront',
        region: '',
        resource: 'distribution',
        resourceName: this.tenants.distributionId,
      }),
      connectionGroupId: this.connectionGroup.attrId,
      routingEndpoint: this.connectionGroup.attrRoutingEndpoint,
    };
  }
}
