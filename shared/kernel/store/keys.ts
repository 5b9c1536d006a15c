/**
 * Every key prefix of the platform table, declared once, under the product that owns it. A key is
 * built from these (`${PREFIXES.tracker.issue}${issueId}`), never from a literal: a prefix spelled
 * twice can drift (a count that reads `DEV#` while the records are written under `DEVICE#`), and
 * two products that pick one prefix would read each other's records.
 *
 * Each prefix is upper-case words, each ending in `#`; `#` ends every word, so no prefix of one
 * product is the beginning of another's (`T#` is not the beginning of `TSPACE#`). A nested prefix
 * (`CTS#W#`) belongs to the product of its first word. Fixed sort keys (`ORG`, `STATS`, …) are not
 * prefixes and stay where they are written.
 *
 * A unit test (test/store/keys.unit.test.ts) holds that no two products declare one prefix and that
 * every `XYZ#` written in a string of `shared/` and `functions/` is declared here.
 */
export const PREFIXES = {
  /** Organizations, people, keys and sessions (shared/kernel/identity, ./table's `keys`). */
  identity: {
    org: 'ORG#',
    orgSlug: 'ORGSLUG#',
    member: 'MEMBER#',
    team: 'MEMBERTEAM#',
    invite: 'MEMBERINVITE#',
    inviteEmail: 'INVITEEMAIL#',
    inviteRef: 'INVITE#',
    key: 'KEY#',
    keyHash: 'KEYHASH#',
    user: 'USER#',
    email: 'EMAIL#',
    session: 'SESSION#',
    deviceLogin: 'DEVLOGIN#',
    userCode: 'USERCODE#',
    /** App passwords, in the person's partition (`USER#`; shared/kernel/identity/app-passwords.ts). */
    appPassword: 'APPPW#',
  },
  /** The audit log (shared/kernel/audit). */
  audit: { org: 'AUDIT#', day: 'AUDITDAY#' },
  /** The platform catalog's partitions and plans (shared/kernel/plans). */
  plans: { platform: 'PLATFORM#', plan: 'PLAN#' },
  /** Rate limits and idempotency records (shared/kernel/http). */
  http: { rate: 'RATE#', idempotency: 'IDEM#' },
  /** Leases (./lease). */
  store: { lease: 'LEASE#' },
  /** The local DNS port's records (shared/ports/dns/local.ts). */
  dns: { name: 'DNS#' },
  /** Bucket settings and the local object store's versions (shared/ports/object-storage). */
  objectStorage: { bucket: 'BUCKETCFG#', version: 'VER#', localShim: 'LOCALS3#' },
  platformAdmin: { region: 'REGION#', location: 'LOCATION#', model: 'MODEL#' },
  projects: { project: 'PRJ#', slug: 'PRJSLUG#', env: 'ENV#' },
  deployments: {
    deployment: 'DPL#',
    route: 'ROUTE#',
    serverFunction: 'FN#',
    cron: 'CRON#',
    preview: 'PREVIEW#',
    expiry: 'EXPIRY#',
  },
  hosts: { host: 'HOST#', projectHosts: 'PRJHOSTS#', migration: 'MIGRATION#' },
  customDomains: { domain: 'DOM#', claim: 'DOMCLAIM#', oauthState: 'DNSOAUTH#' },
  resources: { resource: 'RES#', name: 'RESNAME#', link: 'LINK#' },
  connectors: {
    connector: 'CON#',
    slug: 'CONSLUG#',
    tools: 'CONTOOLS#',
    token: 'CONTOKEN#',
    oauthState: 'CONSTATE#',
    oauthClient: 'CONCLIENT#',
  },
  agents: {
    device: 'DEVICE#',
    networkRequest: 'NETREQ#',
    job: 'JOB#',
    queue: 'JOBQ#',
    run: 'JOBRUN#',
    callback: 'JOBCALLBACK#',
    pollFrom: 'JOBPOLL#',
  },
  notifications: { notice: 'NOTICE#', protocol: 'NOTIFYPROTO#', attached: 'NOTIFYATT#' },
  webhooks: { endpoint: 'WEBHOOK#', delivery: 'WHDELIVERY#' },
  signinClients: { client: 'OAUTHCLIENT#', count: 'OAUTHCLIENTS#', byProject: 'PRJCLIENTS#', refresh: 'IDPREFRESH#' },
  pages: {
    page: 'PAGE#',
    children: 'PAGES#',
    searchIndex: 'PGIDX#',
    favorites: 'PGFAV#',
    by: 'BY#',
    favoritesOf: 'PGFAVS#',
    /** A page's saved versions (shared/domains/pages/versions.ts). */
    versions: 'PGVER#',
  },
  insights: {
    metrics: 'METRICS#',
    batch: 'METRICSBATCH#',
    hour: 'H#',
    route: 'R#',
    project: 'P#',
    projectRoute: 'PR#',
  },
  tracker: {
    space: 'TSPACE#',
    spaceKey: 'TSPACEKEY#',
    spaceIssues: 'TRKSPACE#',
    issue: 'TISSUE#',
    issueNumber: 'TISSUENUM#',
    description: 'TDESC#',
    views: 'TVIEWS#',
    statusCount: 'TCOUNT#',
    board: 'TBOARD#',
    sprint: 'TSPRINT#',
    version: 'TVERSION#',
    component: 'TCOMPONENT#',
    comment: 'TCOMMENT#',
    link: 'TLINK#',
    worklog: 'TWORKLOG#',
    attachment: 'TATTACH#',
    import: 'TIMPORT#',
  },
  repos: {
    repo: 'REPOID#',
    number: 'NUM#',
    comment: 'CMT#',
    approval: 'APPROVAL#',
    thread: 'THREAD#',
    openPull: 'OPENPR#',
    check: 'CHECK#',
    tag: 'TAGREF#',
    archive: 'ARCHIVE#',
    label: 'REPOLABEL#',
    import: 'REPOIMPORT#',
    imports: 'REPOIMPORTS#',
    credential: 'GITCRED#',
    lfsLocks: 'LFSLOCK#',
    lfsPath: 'PATH#',
  },
  mail: {
    mailbox: 'MBX#',
    domain: 'MAILDOM#',
    domainClaim: 'MAILDOMAIN#',
    claimIndex: 'MAILCLAIM#',
    address: 'MAILADDR#',
    thread: 'T#',
    labelIndex: 'I#',
    message: 'M#',
    messageId: 'MID#',
    subject: 'SUBJ#',
    received: 'RCV#',
    correspondent: 'CORR#',
    upload: 'U#',
    draft: 'D#',
    label: 'LBL#',
    labelName: 'LBLNAME#',
    day: 'DAY#',
    month: 'MONTH#',
    vacation: 'VAC#',
    feedback: 'FB#',
  },
  /** In the mailbox's partition (`MBX#`), but for the feeds' token lookups (`CALFEED#`). */
  calendar: {
    calendars: 'CALS#',
    calendar: 'CALS#CAL#',
    event: 'CALS#EVT#',
    uid: 'CALS#UID#',
    events: 'CALEV#',
    gone: 'CALS#GONE#',
    name: 'CALS#NAME#',
    feed: 'CALS#FEED#',
    feedLookup: 'CALFEED#',
  },
  /** In the mailbox's partition (`MBX#`). */
  contacts: {
    contacts: 'CTS#',
    book: 'CTS#ABK#',
    contact: 'CTS#CTC#',
    posting: 'CTS#W#',
    gone: 'CTS#GONE#',
    name: 'CTS#NAME#',
  },
  /** Calendar and contacts programs (shared/domains/dav): a person's names for calendars, in their partition (`USER#`). */
  dav: { calendarAlias: 'DAVCAL#' },
} as const;

export type Product = keyof typeof PREFIXES;
