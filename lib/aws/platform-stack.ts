import * as path from 'node:path';
import { Annotations, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { type RouteGroup, routeGroups } from '../route-groups';
import { type Worker, workers } from '../workers';
import { PlatformApi } from './api';
import { PlatformData } from './data';
import { addDav, DAV_ADDRESS_GROUPS, type DavFunction } from './dav';
import { PlatformDeployments } from './deployments';
import { GitFunction } from './git';
import { grantNeeds } from './grants';
import { GroupFunction } from './group-function';
import { RepoImports } from './imports';
import { AgentJobs } from './jobs';
import { PlatformServing } from './serving';
import { PlatformWebApp } from './web-app';
import { addWorkers, pascal, type WorkerFunction } from './workers';

export interface PlatformStackProps extends StackProps {
  /** The identity provider whose JWKS verifies people's tokens. */
  authUrl: string;
  /** `STAGE` of the functions; default `dev`, as in shared/config. */
  stage?: string;
  /**
   * The audience the identity provider puts in access tokens (`aud`): every function checks it
   * (AUTH_AUDIENCE). Required: a function without it would accept any audience's default.
   */
  authAudience: string;
  /** Origins the API answers CORS preflights for. */
  corsOrigins?: string[];
  /** The location registry as JSON (`LOCATIONS`); the functions' default when unset. */
  locations?: string;
  defaultLocation?: string;
  /** The route-group table; tests pass their own to exercise every `needs` value. */
  groups?: RouteGroup[];
  /** The worker table; tests pass their own to exercise every trigger. */
  workers?: Worker[];
  /** Repository root, where `functions/<group>/handler.ts` and the lock file are. */
  projectRoot?: string;
  /** The Lambda Web Adapter layer of deployed server functions (default: AWS's public arm64 layer). */
  webAdapterLayerArn?: string;
  /**
   * The sender of the platform's mail (notifications): an SES identity verified in the account
   * (`cdk deploy -c mailFrom=…`). Default `notifications@example.com`, which sends nothing.
   */
  mailFrom?: string;
  /** The origination number of texts and calls (End User Messaging); none: the account's default for texts. */
  phoneOrigination?: string;
  /**
   * The Cognito user pool that projects' users sign in to: its app clients are the sign-in clients
   * of the API. None: those routes answer 409 until one is set.
   */
  cognitoUserPoolId?: string;
  /**
   * The domain deployments are served under (`<name>.<appsDomain>`) and its Route 53 zone: with
   * both, the stack serves sites (lib/aws/serving.ts); without, it routes nothing and says so.
   */
  appsDomain?: string;
  appsHostedZoneId?: string;
  /** A us-east-1 certificate for `*.<appsDomain>` (none: made by the stack, which must then be in us-east-1). */
  appsCertificateArn?: string;
  /** The DAV handler (default functions/dav/handler.ts under projectRoot; none there: no DAV function). */
  davEntry?: string;
  /** The web app's client id at the identity provider (lib/aws/web-app.ts says what happens without). */
  webClientId?: string;
  /** The built web app; default `<projectRoot>/web/dist` (missing: a placeholder page is deployed). */
  webDist?: string;
}

/**
 * The platform on AWS: an HTTP API with one Lambda function per route group, the platform table,
 * the artifacts bucket, the agent job queue and the keys. Each function gets only what its
 * group's `needs` lists.
 */
export class PlatformStack extends Stack {
  readonly functions: GroupFunction[];
  readonly data: PlatformData;
  readonly jobs: AgentJobs;
  readonly http: PlatformApi;
  /** Deployment builds (CodeBuild), the server functions' role. */
  readonly deployments: PlatformDeployments;
  /** Imports of existing repositories (CodeBuild). */
  readonly imports: RepoImports;
  /** Git over HTTPS (functions/git), when the repos group is in the table. */
  readonly git: GitFunction | undefined;
  /** CalDAV and CardDAV behind a function URL (lib/aws/dav.ts), when the handler is in the tree. */
  readonly dav: DavFunction | undefined;
  /** One function per worker of lib/workers.ts, with its trigger, in the table's order. */
  readonly workers: WorkerFunction[];
  /** The platform's web app (S3 behind CloudFront), whose origin the API's CORS allows. */
  readonly web: PlatformWebApp;

  private readonly workerQueues = new Map<string, sqs.IQueue>();
  readonly mailFrom: string;
  readonly phoneOrigination: string | undefined;
  readonly cognitoUserPoolId: string | undefined;
  /** Sites and custom domains, when an apps domain is given. */
  readonly sites: PlatformServing | undefined;
  get serving() {
    return this.sites?.cdn;
  }

  /** The queue of the queue worker reading `queue`: what a function sending to it is granted. */
  workerQueue(queue: string): sqs.IQueue {
    const found = this.workerQueues.get(queue);
    if (!found) throw new Error(`No worker of the table reads the queue ${queue}: add its row to lib/workers.ts.`);
    return found;
  }

  registerWorkerQueue(queue: string, q: sqs.IQueue): void {
    this.workerQueues.set(queue, q);
  }

  constructor(scope: Construct, id: string, props: PlatformStackProps) {
    super(scope, id, props);
    if (!props.authAudience?.trim()) {
      throw new Error(
        'The stack needs the audience of its access tokens: cdk synth -c authAudience=<aud> (or AUTH_AUDIENCE).',
      );
    }
    const groups = props.groups ?? routeGroups;
    this.mailFrom = props.mailFrom ?? 'notifications@example.com';
    this.phoneOrigination = props.phoneOrigination;
    this.cognitoUserPoolId = props.cognitoUserPoolId;
    const projectRoot = props.projectRoot ?? path.resolve(__dirname, '..', '..');

    this.data = new PlatformData(this, 'Data');
    this.jobs = new AgentJobs(this, 'AgentJobs');

    const environment: Record<string, string> = {
      TABLE_NAME: this.data.table.tableName,
      AUTH_URL: props.authUrl,
      PLATFORM_TARGET: 'aws',
      STAGE: props.stage ?? 'dev',
      AUTH_AUDIENCE: props.authAudience,
      ...(props.locations ? { LOCATIONS: props.locations } : {}),
      ...(props.defaultLocation ? { DEFAULT_LOCATION: props.defaultLocation } : {}),
      ...(props.appsDomain ? { APPS_DOMAIN: props.appsDomain } : {}),
    };
    this.deployments = new PlatformDeployments(this, 'DeploymentBuilds', {
      data: this.data,
      projectRoot,
      environment,
      webAdapterLayerArn: props.webAdapterLayerArn,
    });
    this.imports = new RepoImports(this, 'RepoImports', {
      data: this.data,
      projectRoot,
      environment,
      encryptionKey: this.deployments.buildKey,
    });
    // Git over HTTPS, when the repositories are served: its URL is the base of clone URLs.
    this.git = groups.some((g) => g.name === 'repos')
      ? new GitFunction(this, 'Git', { projectRoot, environment, platform: this })
      : undefined;
    const withGit = this.git ? { ...environment, GIT_BASE_URL: this.git.url.url } : environment;
    this.dav = addDav(this, { projectRoot, environment, platform: this, entry: props.davEntry });
    const davUrl = (group: RouteGroup): Record<string, string> =>
      this.dav && DAV_ADDRESS_GROUPS.includes(group.name) ? { DAV_BASE_URL: this.dav.url.url } : {};
    // Before the groups' grants: the domains group's `cdn` need reads it.
    this.sites =
      props.appsDomain && props.appsHostedZoneId
        ? new PlatformServing(this, 'Sites', {
            projectRoot,
            environment,
            platform: this,
            appsDomain: props.appsDomain,
            appsHostedZoneId: props.appsHostedZoneId,
            appsCertificateArn: props.appsCertificateArn,
          })
        : undefined;
    if (!this.sites) {
      Annotations.of(this).addInfo(
        'No apps domain: deployed sites are not served (cdk deploy -c appsDomain=… -c appsHostedZoneId=…).',
      );
      new CfnOutput(this, 'Sites', { value: 'not served: set the appsDomain and appsHostedZoneId context' });
    }
    this.functions = groups.map(
      (group) =>
        new GroupFunction(this, pascal(group.name), {
          group,
          projectRoot,
          environment: { ...(group.needs.includes('git') ? withGit : environment), ...davUrl(group) },
        }),
    );
    // Workers first: a group that sends to a worker's queue is granted that queue.
    this.workers = addWorkers(this, props.workers ?? workers, { projectRoot, environment, platform: this });
    // Every group keeps the answers of writes sent with Idempotency-Key, sealed (shared/kernel/http/idempotency.ts).
    for (const f of this.functions) grantNeeds(f, [...f.group.needs, 'idempotency'], this);

    this.web = new PlatformWebApp(this, 'WebApp', {
      projectRoot,
      dist: props.webDist,
      authUrl: props.authUrl,
      webClientId: props.webClientId,
      logBucket: this.data.logBucket,
    });
    this.http = new PlatformApi(this, 'Api', {
      functions: this.functions,
      corsOrigins: [...(props.corsOrigins ?? ['http://localhost:3000']), this.web.origin],
    });
    this.web.deploy(this.http.api.apiEndpoint);
    // The web app's browsers put and read attachments with presigned links of the artifacts bucket.
    this.data.artifactsBucket.addCorsRule({
      allowedOrigins: [this.web.origin],
      allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.HEAD, s3.HttpMethods.PUT],
      allowedHeaders: ['*'],
      exposedHeaders: ['ETag'],
      maxAge: 3000,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.http.stage.url });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'ArtifactsBucketName', { value: this.data.artifactsBucket.bucketName });
    new CfnOutput(this, 'QueueUrl', { value: this.jobs.queue.queueUrl });
    new CfnOutput(this, 'BuildProjectName', { value: this.deployments.project.projectName });
    if (this.git) new CfnOutput(this, 'GitUrl', { value: this.git.url.url });
    if (this.dav) new CfnOutput(this, 'DavUrl', { value: this.dav.url.url });
    else Annotations.of(this).addInfo('No functions/dav/handler.ts: CalDAV and CardDAV are not served.');
  }
}
