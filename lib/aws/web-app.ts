import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Annotations, CfnOutput, CfnParameter, Duration, NestedStack, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { IMMUTABLE, originOf, REVALIDATE, WEB_BASE, WEB_CLIENT_ID, type WebConfig, webAppCsp } from '../web-app-policy';
import { ack, acknowledge } from './nag';

export interface WebAppProps {
  /** The built app (`vite build -c web/vite.config.mts`); default `<projectRoot>/web/dist`. */
  dist?: string;
  projectRoot: string;
  /** The identity provider's issuer (the stack's `authUrl`). */
  authUrl: string;
  /**
   * The web app's client id at the identity provider. None: with a Cognito issuer, an app client
   * made here; else `platform-web`, to be registered there (the output `WebAppCallbackUrl` says where to).
   */
  webClientId?: string;
  /** Where S3 writes the bucket's access logs. */
  logBucket: s3.IBucket;
}

/** A Cognito user pool's issuer: `https://cognito-idp.<region>.amazonaws.com/<pool id>`. */
const COGNITO_ISSUER = /^https:\/\/cognito-idp\.([a-z0-9-]+)\.amazonaws\.com\/([a-z0-9-]+_[A-Za-z0-9]+)$/;

/**
 * At the edge, before the cache: `/` (and `/app`) go to `/app/`, `/app/` is its index.html, and
 * nothing outside `/app/` is served (so the bucket's 403/404, answered with index.html for the
 * single-page app, can only come from a path under it).
 */
const EDGE_REQUEST = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri === '/' || uri === '/app') {
    return { statusCode: 302, statusDescription: 'Found', headers: { location: { value: '/app/' }, 'cache-control': { value: 'no-cache' } } };
  }
  if (uri.indexOf('/app/') !== 0) {
    return {
      statusCode: 404,
      statusDescription: 'Not Found',
      headers: { 'content-type': { value: 'application/json; charset=utf-8' } },
      body: { encoding: 'text', data: '{"error":"Not found"}' },
    };
  }
  if (uri === '/app/') request.uri = '/app/index.html';
  return request;
}`;

/** Deployed when web/dist is missing at synth (the stack synthesizes without the app built). */
const PLACEHOLDER = `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>The web app is not built</title>
<h1>The web app is not built</h1>
<p>The stack was deployed without web/dist: run <code>npm ci</code> (or <code>npm run build:web</code>) and <code>cdk deploy</code> again.</p>
</html>
`;

/**
 * The platform's own web app on AWS: its files in a private bucket (S3 managed encryption, SSL
 * only, access logs) that only this CloudFront distribution reads (origin access control), under
 * `/app/`; the single-page fallback (403/404 of the bucket → `/app/index.html`, which only paths
 * under `/app/` reach); security headers (CSP naming the API and the identity provider, HSTS,
 * nosniff, frame and referrer policies); hashed assets cached a year, the rest revalidated, and
 * `/app/config.json` written at deploy with the API's URL and the identity provider's. The API's
 * CORS allows `origin` (lib/aws/platform-stack.ts).
 */
export class PlatformWebApp extends Construct {
  /** The bucket, the distribution and its policies, the Cognito client: a nested stack of their own. */
  readonly hosting: NestedStack;
  /** The deployments of the files (made by `deploy`), in another: they need the API's URL, whose CORS needs the distribution. */
  files: NestedStack | undefined;
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  /** `https://<distribution domain>`, the app's origin. */
  readonly origin: string;
  readonly clientId: string;
  /** The Cognito app client made for the app, when the issuer is a Cognito user pool. */
  readonly cognitoClient: cognito.UserPoolClient | undefined;
  /** Whether web/dist was missing at synth (a placeholder page is deployed). */
  readonly placeholder: boolean;
  private readonly dist: string;
  private readonly authUrl: string;

  constructor(scope: Construct, id: string, props: WebAppProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // Nested stacks: the stack's own 500 resources go to the API and its functions.
    this.hosting = new NestedStack(this, 'Hosting', { description: "The platform's web app: its bucket and CDN" });
    const hosting = this.hosting;
    this.dist = props.dist ?? path.join(props.projectRoot, 'web', 'dist');
    this.placeholder = !existsSync(path.join(this.dist, 'index.html'));
    this.authUrl = props.authUrl;

    this.bucket = new s3.Bucket(hosting, 'Files', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 'web-app/',
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(7) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const cognitoIssuer = COGNITO_ISSUER.exec(props.authUrl);
    const region = cognitoIssuer?.[1];
    // The API's own host is not named here: the API's CORS names this distribution, so the
    // distribution can't name the API back (a cycle). Any API Gateway host of the stack's region.
    const connect = [
      `https://*.execute-api.${hosting.region}.${hosting.urlSuffix}`,
      originOf(props.authUrl) ?? '',
      // Cognito's authorization and token endpoints are on the user pool's domain.
      ...(region ? [`https://*.auth.${region}.amazoncognito.com`] : []),
    ];
    // Presigned links of the platform's buckets (virtual-hosted style): attachments go up and down
    // between the browser and S3 (the artifacts bucket's CORS names this origin).
    const storage = [`https://*.s3.${hosting.region}.${hosting.urlSuffix}`];
    const auth = [originOf(props.authUrl) ?? '', ...(region ? [`https://*.auth.${region}.amazoncognito.com`] : [])];
    const headers = new cloudfront.ResponseHeadersPolicy(hosting, 'Headers', {
      comment: "The web app's security headers",
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: webAppCsp(connect, auth, storage), override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.SAMEORIGIN, override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          override: true,
        },
      },
    });
    const edge = new cloudfront.Function(hosting, 'Paths', {
      code: cloudfront.FunctionCode.fromInline(EDGE_REQUEST),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: '/ to /app/, /app/ to its index.html, nothing outside /app/',
    });
    this.distribution = new cloudfront.Distribution(hosting, 'Cdn', {
      comment: "The platform's web app",
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        // Kept as long as each file's Cache-Control says (set at deploy: IMMUTABLE or REVALIDATE).
        cachePolicy: new cloudfront.CachePolicy(hosting, 'ByPath', {
          comment: "The web app's files, as long as their Cache-Control says",
          defaultTtl: Duration.seconds(0),
          minTtl: Duration.seconds(0),
          maxTtl: Duration.days(365),
          headerBehavior: cloudfront.CacheHeaderBehavior.none(),
          queryStringBehavior: cloudfront.CacheQueryStringBehavior.none(),
          cookieBehavior: cloudfront.CacheCookieBehavior.none(),
          enableAcceptEncodingGzip: true,
          enableAcceptEncodingBrotli: true,
        }),
        responseHeadersPolicy: headers,
        functionAssociations: [{ function: edge, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        compress: true,
      },
      // The single-page app routes in the browser: a path under /app/ without a file is its page.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: `${WEB_BASE}index.html`,
        ttl: Duration.seconds(0),
      })),
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
    });
    this.origin = `https://${this.distribution.distributionDomainName}`;
    const callback = `${this.origin}${WEB_BASE}callback`;

    if (props.webClientId) {
      this.clientId = props.webClientId;
    } else if (cognitoIssuer) {
      const pool = cognito.UserPool.fromUserPoolId(hosting, 'Pool', cognitoIssuer[2] as string);
      // Public (no secret), code flow only (the app always sends PKCE S256), refresh tokens that
      // work once, revocable on sign-out.
      this.cognitoClient = pool.addClient('Client', {
        userPoolClientName: `${stack.stackName}-web`,
        generateSecret: false,
        authFlows: {},
        oAuth: {
          flows: { authorizationCodeGrant: true },
          scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
          callbackUrls: [callback],
          logoutUrls: [`${this.origin}${WEB_BASE}`],
        },
        supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
        preventUserExistenceErrors: true,
        enableTokenRevocation: true,
        accessTokenValidity: Duration.minutes(15),
        idTokenValidity: Duration.minutes(15),
        refreshTokenValidity: Duration.hours(12),
        refreshTokenRotationGracePeriod: Duration.seconds(0),
      });
      this.clientId = this.cognitoClient.userPoolClientId;
    } else {
      this.clientId = WEB_CLIENT_ID;
      Annotations.of(this).addInfo(
        `The web app signs in as client "${WEB_CLIENT_ID}": register it at ${props.authUrl} as a public client with PKCE ` +
          'and the callback of the output WebAppCallbackUrl, or give its id with -c webClientId=….',
      );
    }

    acknowledge(this.distribution, 'AwsSolutions-CFR1', 'The web app is for everyone, everywhere: no geo restriction.');
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR2',
      'Static files only (GET and HEAD, cached); the API behind them has its own throttling.',
    );
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR3',
      "CloudFront's standard logs need an ACL-enabled bucket; the app's files are public by nature and the bucket logs its reads.",
    );
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR4',
      "The distribution answers at its own cloudfront.net name, with CloudFront's default certificate, whose TLS policy CloudFront sets.",
    );
    new CfnOutput(stack, 'WebAppUrl', { value: `${this.origin}${WEB_BASE}` });
    new CfnOutput(stack, 'WebAppCallbackUrl', { value: callback });
    new CfnOutput(stack, 'WebClientId', { value: this.clientId });
  }

  /**
   * The app's files into the bucket under `app/`: hashed assets first (kept: a page still open may
   * ask for the chunks it was built with), then index.html, the other files and the generated
   * config.json (old ones pruned), and the distribution's cache of `/app/*` invalidated.
   */
  deploy(apiUrl: string): void {
    // What the files' stack reads of the others, as its parameters (named, so findings name them).
    const given = {
      ApiUrl: apiUrl,
      BucketArn: this.bucket.bucketArn,
      DistributionId: this.distribution.distributionId,
      DistributionDomain: this.distribution.distributionDomainName,
      ClientId: this.clientId,
    };
    const files = new NestedStack(this, 'Files', {
      description: "The platform's web app: its files deployed",
      parameters: given,
    });
    this.files = files;
    const param = (name: keyof typeof given) => new CfnParameter(files, name, { type: 'String' }).valueAsString;
    const [api, bucketArn, distributionId, domainName, clientId] = (
      ['ApiUrl', 'BucketArn', 'DistributionId', 'DistributionDomain', 'ClientId'] as const
    ).map(param) as [string, string, string, string, string];
    const bucket = s3.Bucket.fromBucketArn(files, 'Bucket', bucketArn);
    const distribution = cloudfront.Distribution.fromDistributionAttributes(files, 'Cdn', {
      distributionId,
      domainName,
    });
    const config: WebConfig = {
      apiUrl: api,
      authUrl: this.authUrl,
      clientId,
      redirectUri: `https://${domainName}${WEB_BASE}callback`,
    };
    const prefix = WEB_BASE.slice(1);
    // The deployments' handler (one function CDK makes for both) gets a role of its own that can
    // write only to its own log group, as every function of the stack (lib/aws/group-function.ts),
    // rather than AWSLambdaBasicExecutionRole; the deployments add their grants to it.
    const logGroup = new logs.LogGroup(files, 'DeployLogs', { retention: logs.RetentionDays.ONE_MONTH });
    const role = new iam.Role(files, 'DeployRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: "Deploys the web app's files into its bucket",
    });
    logGroup.grantWrite(role);
    const common = { destinationBucket: bucket, destinationKeyPrefix: prefix, memoryLimit: 512, role, logGroup };
    let assets: deploy.BucketDeployment | undefined;
    if (this.placeholder) {
      Annotations.of(this).addInfo(
        `${path.relative(process.cwd(), this.dist) || this.dist} is missing: a placeholder page is deployed for the web app (npm ci builds it).`,
      );
    } else {
      assets = new deploy.BucketDeployment(files, 'Assets', {
        ...common,
        sources: [deploy.Source.asset(this.dist)],
        exclude: ['*'],
        include: ['assets/*'],
        prune: false,
        cacheControl: [deploy.CacheControl.fromString(IMMUTABLE)],
      });
    }
    const pages = new deploy.BucketDeployment(files, 'Pages', {
      sources: [
        this.placeholder ? deploy.Source.data('index.html', PLACEHOLDER) : deploy.Source.asset(this.dist),
        deploy.Source.jsonData('config.json', config),
      ],
      ...common,
      // Not the hashed assets (the deployment above), not the build's own hidden files.
      exclude: ['assets/*', '.vite/*'],
      prune: true,
      cacheControl: [deploy.CacheControl.fromString(REVALIDATE)],
      distribution,
      distributionPaths: [`${WEB_BASE}*`],
    });
    if (assets) pages.node.addDependency(assets);

    // The deployments' handler: one function CDK provides for every BucketDeployment of the stack.
    const handler = files.node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (handler) {
      // The bootstrap bucket the uploaded files are read from (its qualifier, default hnb659fds).
      const qualifier = String(files.node.tryGetContext('@aws-cdk/core:bootstrapQualifier') ?? 'hnb659fds');
      const assets = `cdk-${qualifier}-assets-<AWS::AccountId>-<AWS::Region>`;
      ack(role, {
        [`Resource::arn:<AWS::Partition>:s3:::${assets}/*`]:
          "Reads the app's files CDK uploaded to the bootstrap bucket (the construct's grant).",
        'Resource::<BucketArn>/*': "Writes and prunes the app's files in its own bucket.",
        'Action::s3:GetObject*':
          'Reads the uploaded files and the bucket, as the construct grants (no wider than the two buckets).',
        'Action::s3:GetBucket*':
          'Reads the uploaded files and the bucket, as the construct grants (no wider than the two buckets).',
        'Action::s3:List*': 'Lists both buckets to sync them, as the construct grants.',
        'Action::s3:Abort*': "Uploads the app's files (multipart), as the construct grants.",
        'Action::s3:DeleteObject*': "Prunes the app's old files, as the construct grants.",
        'Resource::*': 'CloudFront invalidations (CreateInvalidation, GetInvalidation) take no narrower resource here.',
      });
      acknowledge(
        handler,
        'AwsSolutions-L1',
        "CDK's BucketDeployment handler runs on the Python runtime CDK ships it for (aws-cdk-lib updates it).",
      );
    }
  }
}
