import type { Need } from '../shared/kernel/needs';

/**
 * THE table of route groups: each group is one Lambda function (`functions/<name>/handler.ts`)
 * that serves the path prefixes listed here. API Gateway gets `ANY <prefix>` and
 * `ANY <prefix>/{proxy+}` for each prefix; the most specific prefix wins, as locally.
 * Read by the CDK stack, the local gateway, the build, the bench and the tests.
 * Only groups that exist are listed.
 */
export interface RouteGroup {
  name: string;
  /** API Gateway style: `{param}` segments. */
  prefixes: string[];
  /**
   * The outside systems the function reaches, for least-privilege grants (lib/aws/grants.ts) and
   * the environment each brings (shared/kernel/needs.ts): the platform table, the cursor-signing secret,
   * the KMS key, the platform's artifacts bucket, the agent queue, customer databases (tables
   * named `cust-*`), customer buckets (named `plt-*`), deployment builds (start, stop, read their
   * logs), deployed server functions (`plt-fn-*`: read, delete, read their logs). Workers
   * (lib/workers.ts) use the same vocabulary.
   */
  needs: Need[];
  /** The catch-all group: API Gateway's `$default` route goes here. */
  fallback?: boolean;
}

export const routeGroups: RouteGroup[] = [
  {
    name: 'core',
    // /v1/login: people's command-line logins by device code (shared/kernel/identity/sessions.ts).
    prefixes: ['/health', '/v1/me', '/v1/locations', '/v1/login'],
    needs: ['table'],
    fallback: true,
  },
  {
    name: 'orgs',
    prefixes: ['/v1/orgs/{orgId}'],
    // mail: the mail of an invitation (shared/kernel/identity/invites.ts).
    needs: ['table', 'mail'],
  },
  {
    name: 'resources',
    prefixes: ['/v1/orgs/{orgId}/resources'],
    // git: repositories created and deleted through /resources share the repos group's code
    // (repoLfs: a deleted repository's LFS objects go with it).
    needs: ['table', 'customerTables', 'customerBuckets', 'git', 'repoLfs'],
  },
  {
    name: 'databases',
    prefixes: ['/v1/orgs/{orgId}/databases'],
    needs: ['table', 'cursorSecret', 'customerTables'],
  },
  {
    name: 'storage',
    prefixes: ['/v1/orgs/{orgId}/storage'],
    needs: ['table', 'cursorSecret', 'customerBuckets'],
  },
  {
    name: 'projects',
    prefixes: ['/v1/orgs/{orgId}/projects'],
    // kms: a transfer re-encrypts the project's variables for the target organization.
    // buckets: a delete removes the project's build outputs and cache from the artifacts bucket.
    // functions: delete and transfer stop and remove the project's server functions.
    // signin: a delete removes the project's sign-in clients; cdn: and its domains' CDN tenants.
    needs: ['table', 'kms', 'buckets', 'functions', 'signin', 'cdn'],
  },
  {
    name: 'env',
    prefixes: ['/v1/orgs/{orgId}/projects/{projectId}/env'],
    needs: ['table', 'kms'],
  },
  {
    name: 'deployments',
    prefixes: [
      '/v1/orgs/{orgId}/deployments',
      '/v1/orgs/{orgId}/projects/{projectId}/uploads',
      '/v1/orgs/{orgId}/projects/{projectId}/deployments',
    ],
    // kms: a build gets its target's variables; buckets: upload links and source archives.
    // git: a deployment of a commit reads it (404 `Commit not found`, its message and author).
    // notify: a deployment that fails to start raises deployment.failed.
    needs: ['table', 'cursorSecret', 'kms', 'buckets', 'builds', 'functions', 'git', 'notify'],
  },
  {
    name: 'repos',
    prefixes: ['/v1/orgs/{orgId}/repos', '/v1/orgs/{orgId}/git-credentials'],
    // git: the repositories' storage; cursorSecret: commit pages; buckets: files uploaded for web
    // commits, archives; repoArchives: archives queued for their worker.
    needs: ['table', 'cursorSecret', 'git', 'buckets', 'repoArchives', 'repoImports', 'kms'],
  },
  {
    // Issues of a repository: its records only (the longer prefix wins over repos').
    name: 'repo-issues',
    prefixes: ['/v1/orgs/{orgId}/repos/{name}/issues'],
    // notify: new assignees raise issue.assigned, @handles in a body issue.mentioned.
    needs: ['table', 'cursorSecret', 'notify'],
  },
  {
    // Pull requests: their records, and the repository's storage to compare and merge branches;
    // check runs on commits (the longer prefix wins over repos'). Opening and reopening start
    // previews: the target's variables (kms), the build (builds, the artifacts bucket for its
    // variables object); notify: a preview that fails to start, a check that completes.
    name: 'pulls',
    prefixes: ['/v1/orgs/{orgId}/repos/{name}/pulls', '/v1/orgs/{orgId}/repos/{name}/commits/{sha}/checks'],
    needs: ['table', 'cursorSecret', 'git', 'kms', 'buckets', 'builds', 'notify'],
  },
  {
    // Self-hosted agents as the organization manages them: devices, device logins, network
    // requests, jobs (buckets: links to their results).
    name: 'agents',
    prefixes: ['/v1/orgs/{orgId}/agents'],
    // agentCallbacks: a job ended by cancel or expiry calls its callback; agentChecks: its expiry check;
    // notify: a job that ends raises agent.job_done or agent.job_failed.
    needs: ['table', 'buckets', 'agentCallbacks', 'agentChecks', 'notify'],
  },
  {
    // The agent program's own endpoints: device login (no token), then device tokens only
    // (buckets: the jobs' results links).
    name: 'agent-device',
    prefixes: ['/v1/agent'],
    // notify: a job that ends raises agent.job_done or agent.job_failed.
    needs: ['table', 'buckets', 'agentCallbacks', 'agentChecks', 'notify'],
  },
  {
    // Connectors to remote MCP servers: their records, cached tools and OAuth sign-in (kms: secrets
    // and tokens are envelope-encrypted per organization and connector).
    name: 'connectors',
    prefixes: ['/v1/orgs/{orgId}/connectors'],
    needs: ['table', 'kms'],
  },
  {
    // OAuth clients of a project's own users (Cognito app clients on AWS; the local identity
    // provider's on one machine): longer than the projects prefix.
    name: 'signin-clients',
    prefixes: ['/v1/orgs/{orgId}/projects/{projectId}/oauth-clients'],
    needs: ['table', 'signin'],
  },
  {
    // Signed webhooks: endpoints, their deliveries and redeliveries (kms: the signing secrets sealed).
    name: 'webhooks',
    prefixes: ['/v1/orgs/{orgId}/webhooks'],
    needs: ['table', 'kms', 'webhooks'],
  },
  {
    // A person's notices and settings (longer than core's /v1/me), and an organization's protocols.
    name: 'notifications',
    prefixes: ['/v1/me/notifications', '/v1/orgs/{orgId}/notify'],
    // scheduler: an acknowledgement cancels the timers of the steps not sent.
    needs: ['table', 'cursorSecret', 'scheduler'],
  },
  {
    // Custom domains of projects and the organization's DNS provider: records in the platform
    // table, hosts in the global registry (shared/domains/host-registry/registry.ts); kms: the provider's
    // credentials; dns: lookups and provider writes; domainChecks: the re-checks; notify:
    // domain.verified and domain.failed.
    name: 'domains',
    prefixes: ['/v1/orgs/{orgId}/domains', '/v1/orgs/{orgId}/integrations/dns-provider'],
    // cdn: a verified domain becomes a tenant of the CDN, with its certificate; a deleted one is removed.
    needs: ['table', 'cursorSecret', 'kms', 'dns', 'domainChecks', 'notify', 'cdn'],
  },
  {
    // Knowledge pages: the tree, favorites and the search index in the platform table; content in
    // the artifacts bucket (`pages/<orgId>/`); cursorSecret: lists and search pages.
    name: 'pages',
    prefixes: ['/v1/orgs/{orgId}/pages', '/v1/orgs/{orgId}/favorites'],
    needs: ['table', 'cursorSecret', 'buckets'],
  },
  {
    // The organization's audit log (written by the one middy stack for every write) and its API
    // analytics (hourly counters the analytics worker adds): records in the platform table.
    name: 'insights',
    prefixes: ['/v1/orgs/{orgId}/analytics', '/v1/orgs/{orgId}/audit'],
    needs: ['table', 'cursorSecret'],
  },
  {
    // Mail: domains, mailboxes, threads, labels, drafts (records in the platform table, messages and
    // attachments in the artifacts bucket under `mail/<mailboxId>/`; domain checks look up DNS_SERVERS); mail:
    // sending (SES, or the local SMTP server) and domain identities; notify: mail.vip.
    name: 'mail',
    prefixes: ['/v1/orgs/{orgId}/mail'],
    needs: ['table', 'cursorSecret', 'buckets', 'mail', 'mailSend', 'notify'],
  },
  {
    // Platform administration, outside any organization (operators only: shared/kernel/identity/operators.ts):
    // organizations' plans and suspension, regions and locations, plans, the model catalog (records
    // in the platform table); mailQuota: the SES account's sending quota for the mail usage.
    name: 'platform',
    prefixes: ['/v1/platform'],
    needs: ['table', 'cursorSecret', 'mailQuota'],
  },
  {
    // A mailbox's address books and contacts (in its partition of the platform table, sort keys
    // `CTS#…`); buckets: photos, import files and large exports in its `mail/<mailboxId>/` folder.
    name: 'contacts',
    prefixes: [
      '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/address-books',
      '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/contacts',
    ],
    needs: ['table', 'cursorSecret', 'buckets'],
  },
  {
    // A mailbox's calendars and events (records in the mailbox's partition, `MBX#<mailboxId>`, GSI1
    // for the window listing); cursorSecret: import tokens; buckets: import files and large exports
    // (`mail/<mailboxId>/calendar-files/`); mail, mailSend: invitations (iMIP) from the mailbox.
    // /feeds: calendars' subscription feeds, public (`/feeds/<token>.ics`: the address is the secret).
    name: 'calendar',
    prefixes: [
      '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars',
      '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/events',
      '/feeds',
    ],
    needs: ['table', 'cursorSecret', 'buckets', 'mail', 'mailSend'],
  },
  {
    // Issue tracking: spaces, boards, sprints, issues (platform table); attachments, large exports
    // and uploaded import files in the artifacts bucket (`tracker/`, `tracker-exports/`,
    // `tracker-imports/`), by presigned link; cursorSecret: signed import-file tokens; notify:
    // issue.assigned and issue.mentioned; scheduler: issue.sla_breached when an SLA clock runs out.
    name: 'tracker',
    prefixes: ['/v1/orgs/{orgId}/issues'],
    needs: ['table', 'cursorSecret', 'buckets', 'notify', 'scheduler'],
  },
];

export const entryOf = (group: RouteGroup) => `functions/${group.name}/handler.ts`;

/** Splits a prefix into segments; `{x}` is a parameter, `{proxy+}` is greedy. */
const segmentsOf = (path: string) => path.split('/').filter(Boolean);

const prefixSegments = new Map<string, string[]>();
/** A prefix's segments, split once per process (the gateway asks for every prefix on every request). */
export function segmentsOfPrefix(prefix: string): string[] {
  let segs = prefixSegments.get(prefix);
  if (!segs) {
    segs = segmentsOf(prefix);
    prefixSegments.set(prefix, segs);
  }
  return segs;
}

/**
 * The group API Gateway would pick for `path`: among prefixes the path equals or extends, the
 * longest wins, literal segments beating parameters at the first difference. Else the fallback.
 */
export function groupFor(path: string, groups: RouteGroup[] = routeGroups): RouteGroup | undefined {
  const parts = segmentsOf(path);
  let best: { group: RouteGroup; score: number[] } | undefined;
  for (const group of groups) {
    for (const prefix of group.prefixes) {
      const segs = segmentsOfPrefix(prefix);
      if (segs.length > parts.length) continue;
      let ok = true;
      const score: number[] = [segs.length];
      for (let i = 0; i < segs.length && ok; i++) {
        const seg = segs[i] as string;
        if (seg.startsWith('{')) score.push(0);
        else if (seg === parts[i]) score.push(1);
        else ok = false;
      }
      if (!ok) continue;
      if (!best || compare(score, best.score) > 0) best = { group, score };
    }
  }
  return best?.group ?? groups.find((g) => g.fallback);
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}
