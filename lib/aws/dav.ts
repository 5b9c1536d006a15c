import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Duration } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { Need } from '../../shared/kernel/needs';
import { type Grantable, grantNeeds } from './grants';
import { PlatformFunction } from './group-function';

/**
 * What the DAV function reaches: what the calendar and contacts groups reach (lib/route-groups.ts),
 * since a client's PUT is the same write as the API's: the platform table (calendars, address
 * books, app passwords and their rate limits), the cursor-signing secret, the artifacts bucket
 * (contact photos, the mailbox's calendar files), and mail (iTIP invitations sent when a client
 * adds an attendee: the platform's sender and the mailbox's own sends).
 */
export const DAV_FUNCTION_NEEDS: Need[] = ['table', 'cursorSecret', 'buckets', 'mail', 'mailSend'];

/** Where the DAV handler is, from the repository root. */
export const DAV_ENTRY = path.join('functions', 'dav', 'handler.ts');

/** The route groups whose answers tell people the DAV address (`DAV_BASE_URL`). */
export const DAV_ADDRESS_GROUPS = ['calendar', 'contacts', 'dav'];

/**
 * A PROPFIND, REPORT or MKCALENDAR may take a while on a large calendar (a sync-collection of
 * thousands of events, an expansion over a year); clients wait that long, API functions 30 s.
 */
export const DAV_TIMEOUT = Duration.minutes(1);

export interface DavFunctionProps {
  /** The handler (`export const handler`, taking a function URL's event, which is API Gateway's payload 2.0). */
  entry: string;
  projectRoot: string;
  environment: Record<string, string>;
  platform: Grantable;
  /**
   * BUFFERED (the default) for a handler that answers a result, as the route groups' do; RESPONSE_STREAM
   * for one wrapped in `streamed()` (shared/kernel/http/function-url.ts), as git's.
   */
  invokeMode?: lambda.InvokeMode;
}

/**
 * CalDAV and CardDAV on AWS: one function (functions/dav/handler.ts) behind a Lambda function URL,
 * as git is served. An HTTP API lists the methods it routes, and CloudFront passes only GET, HEAD,
 * OPTIONS, PUT, PATCH, POST and DELETE: WebDAV's PROPFIND, REPORT, MKCALENDAR (and MOVE, COPY)
 * would never reach a function. A function URL passes any method, and its auth type is NONE: the
 * handler checks each request's Basic credentials (app passwords), as DAV clients send them.
 * Its URL is the address people give their clients (`DAV_BASE_URL` of the functions that say it).
 */
export class DavFunction extends PlatformFunction {
  readonly url: lambda.FunctionUrl;

  constructor(scope: Construct, id: string, props: DavFunctionProps) {
    super(scope, id, {
      entry: props.entry,
      projectRoot: props.projectRoot,
      description: 'CalDAV and CardDAV: calendars and address books for DAV clients (Basic auth by app password)',
      roleDescription: 'CalDAV and CardDAV',
      environment: props.environment,
      timeout: DAV_TIMEOUT,
    });
    this.url = this.fn.addFunctionUrl({
      authType: lambda.FunctionUrlAuthType.NONE,
      invokeMode: props.invokeMode ?? lambda.InvokeMode.BUFFERED,
    });
    grantNeeds(this, DAV_FUNCTION_NEEDS, props.platform);
  }
}

/**
 * The stack's DAV function, when its handler is in the tree (none yet: no function, no URL, and
 * the stack says so), with `DAV_BASE_URL` for the groups that tell people the address.
 */
export function addDav(
  scope: Construct,
  props: { projectRoot: string; environment: Record<string, string>; platform: Grantable; entry?: string },
): DavFunction | undefined {
  const entry = props.entry ?? path.join(props.projectRoot, DAV_ENTRY);
  if (!existsSync(entry)) return undefined;
  return new DavFunction(scope, 'Dav', { ...props, entry });
}
