// Generated from the route table by scripts/openapi.ts (npx tsx scripts/openapi.ts). Do not edit.

/** The named schemas of the API (its records): `components.schemas` of the OpenAPI document. */

export type AddressBook = {
  addressBookId: string;
  name: string;
  isDefault: boolean;
  version: number;
};

export type AgentDevice = {
  deviceId: string;
  orgId: string;
  userId: string;
  name: string;
  ownerName: string | null;
  status?: 'active' | 'revoked';
  version?: string;
  platform?: string;
  features?: string[];
  capabilities: ('http' | 'browser' | 'exec')[];
  networkMode?: 'allowlist' | 'full';
  hosts?: string[];
  lastSeenAt?: number;
  createdAt?: number;
  updatedAt?: number;
};

export type AgentJob = {
  jobId: string;
  orgId: string;
  type: 'http.batch' | 'exec' | 'browser.batch';
  status: string;
  createdBy: string;
  expiresAt: number;
  label?: string;
  hosts?: string[];
  input?: unknown;
  error?: string;
  deviceId?: string;
  cancelRequestedAt?: number;
  canceledBy?: string;
  heartbeatAt?: number;
  queueTtl?: number;
  callbackUrl?: string;
  claimedAt?: number;
  completedAt?: number;
  updatedAt?: number;
  createdAt?: number;
  waiting?: {
    reason: 'no_devices' | 'offline' | 'blocked';
    devices?: unknown[];
  } | null;
};

export type AgentOk = {
  ok: true;
};

export type Attendee = {
  email: string;
  name?: string;
  role: 'optional' | 'required' | 'chair' | 'non-participant';
  status: 'accepted' | 'tentative' | 'needs-action' | 'declined' | 'delegated';
  rsvp: boolean;
  kind: 'unknown' | 'resource' | 'individual' | 'group' | 'room';
};

export type Board = {
  boardId: string;
  name: string;
  ownerId?: string;
  version: number;
  createdAt: number;
  updatedAt: number;
  config: {
    type: 'scrum' | 'kanban';
    spaceIds: string[];
    query?: string;
    columns: {
      id: string;
      name: string;
      statusIds: string[];
      min?: number;
      max?: number;
    }[];
    swimlanes: 'query' | 'none' | 'assignee' | 'priority' | 'parent' | 'epic';
    swimlaneQueries?: {
      id: string;
      name: string;
      query: string;
    }[];
    quickFilters: {
      id: string;
      name: string;
      query: string;
    }[];
    cardFields: string[];
    estimation: 'count' | 'storyPoints' | 'originalEstimate';
    hideDoneAfterDays?: number;
    kanbanBacklog?: boolean;
    wipExcludesSubtasks?: boolean;
    sharing: {
      org: boolean;
      teams: string[];
      users: string[];
    };
  };
};

export type BranchProtection = {
  requiredApprovals: number;
  requiredChecks: RequiredCheck[];
  branch: string | null;
};

export type BuildLogLine = {
  t: number;
  m: string;
};

export type Calendar = {
  calendarId: string;
  name: string;
  color: 'blue' | 'orange' | 'teal' | 'amber' | 'pink' | 'green' | 'red' | 'gray';
  description: string;
  isDefault: boolean;
  version: number;
};

export type CalendarEvent = {
  eventId: string;
  calendarId: string;
  uid: string;
  version: number;
  summary: string;
  description: string;
  location: string;
  allDay: boolean;
  start: number;
  end: number;
  startLocal: string;
  endLocal: string;
  timeZone: string;
  organizer: {
    email: string;
    name?: string;
  } | null;
  attendees: Attendee[];
  isOrganizer: boolean;
  myStatus: 'accepted' | 'tentative' | 'needs-action' | 'declined' | 'delegated' | null;
  status: 'confirmed' | 'tentative' | 'cancelled';
  busyStatus: 'free' | 'tentative' | 'busy' | 'oof' | 'workingElsewhere';
  sensitivity: 'normal' | 'personal' | 'private' | 'confidential';
  reminders: number[];
  categories: string[];
  url: string | null;
  recurrence: {
    freq: 'daily' | 'weekly' | 'monthly' | 'yearly';
    interval: number;
    count?: number;
    until?: string;
    byDay?: {
      day: 'SU' | 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA';
      nth?: number;
    }[];
    byMonthDay?: number[];
    byMonth?: number[];
    bySetPos?: number[];
    weekStart?: 'SU' | 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA';
  } | null;
  rrule: string | null;
  exceptions: {
    recurrenceId: number;
    start: number;
    end: number;
    startLocal: string;
    endLocal: string;
    summary: string;
    location: string;
    status: 'confirmed' | 'tentative' | 'cancelled';
    myStatus: 'accepted' | 'tentative' | 'needs-action' | 'declined' | 'delegated' | null;
    attendees?: Attendee[];
  }[];
  sequence: number;
};

export type CalendarNotified = {
  sent: number;
  error?: string;
};

export type ChangedFile = {
  path: string;
  change: 'deleted' | 'added' | 'modified';
  additions: number;
  deletions: number;
  binary?: boolean;
  collapsed?: boolean;
  hunks: {
    oldStart: number;
    oldLines: number;
    newStart: number;
    newLines: number;
    lines: string[];
  }[];
};

export type CheckRun = {
  checkId: string;
  orgId: string;
  repoId: string;
  commitId: string;
  name: string;
  state: 'queued' | 'in_progress' | 'success' | 'failure' | 'cancelled';
  summary: string | null;
  detailsUrl: string | null;
  startedAt: number | null;
  completedAt: number | null;
  createdBy: string;
  createdByKind: 'user' | 'api_key' | 'agent_key' | 'device' | 'system';
  source: CheckSource;
  createdAt: number;
  updatedAt: number;
  version: number;
};

export type CheckSource =
  | 'platform'
  | {
      apiKey: string;
    }
  | {
      agentKey: string;
    }
  | {
      user: string;
    };

export type CheckSummary = {
  state: 'none' | 'pending' | 'success' | 'failure';
  total: number;
  counts: {
    queued: number;
    in_progress: number;
    success: number;
    failure: number;
    cancelled: number;
  };
};

export type ColumnLoad = {
  id: string;
  count: number;
  min?: number;
  max?: number;
  wipExceeded: boolean;
  wipBelowMin: boolean;
};

export type Comment = {
  commentId: string;
  number: number;
  orgId: string;
  repoId: string;
  body: string;
  authorId: string;
  authorEmail?: string;
  authorName?: string;
  createdAt?: number;
  updatedAt?: number;
};

export type Commit = {
  id: string;
  message: string;
  author: {
    name?: string;
    email?: string;
    date?: number;
  };
  committedAt: number | null;
  parents: string[];
};

export type Conflict = {
  path: string;
  conflicts: number;
  binary: boolean;
  kind: 'type' | 'content' | 'mode';
};

export type Contact = {
  contactId: string;
  addressBookId: string;
  uid: string;
  version: number;
  updatedAt: number;
  hasPhoto: boolean;
  fullName: string;
  displayName: string;
  name: {
    family: string;
    given: string;
    additional: string;
    prefix: string;
    suffix: string;
  };
  nickname: string;
  emails: ContactTypedValue[];
  phones: ContactTypedValue[];
  urls: ContactTypedValue[];
  addresses: {
    type: 'home' | 'work' | 'other';
    poBox: string;
    extended: string;
    street: string;
    locality: string;
    region: string;
    postalCode: string;
    country: string;
  }[];
  organization: string;
  department: string;
  title: string;
  birthday?: string;
  anniversary?: string;
  notes: string;
  categories: string[];
};

export type ContactImportResult = {
  imported: number;
  updated: number;
  skipped: number;
  warnings: string[];
  done: boolean;
  next: string | null;
  upload?: {
    url: string;
    method: 'PUT';
    headers: {
      [key: string]: string;
    };
  };
};

export type ContactTypedValue = {
  value: string;
  type: string;
  pref?: boolean;
};

export type CorsRule = {
  ID?: string;
  AllowedHeaders?: string[];
  AllowedMethods?: ('GET' | 'PUT' | 'POST' | 'DELETE' | 'HEAD')[];
  AllowedOrigins?: string[];
  ExposeHeaders?: string[];
  MaxAgeSeconds?: number;
};

export type CustomDomain = {
  hostname: string;
  orgId: string;
  projectId: string;
  status?: 'error' | 'active' | 'pending' | 'verifying';
  message?: string;
  createdAt?: number;
  updatedAt?: number;
  tenantId?: string;
  certificateArn?: string;
  records?: string;
  zone?: string;
  dnsProvider?: string;
  checkedAt?: number;
  redirectTo?: string;
  version?: number;
};

export type CustomDomainSummary = {
  hostname: string;
  status?: 'error' | 'active' | 'pending' | 'verifying';
  redirectTo?: string;
};

export type Deployment = {
  deploymentId: string;
  orgId: string;
  projectId: string;
  location: string;
  target: 'preview' | 'production';
  status?: 'queued' | 'building' | 'deploying' | 'ready' | 'error' | 'canceled' | 'expired' | 'skipped';
  error?: string;
  createdAt?: number;
  updatedAt?: number;
  region?: string;
  createdBy?: string;
  branch?: string;
  commitSha?: string;
  commitMessage?: string;
  commitAuthor?: string;
  host?: string;
  buildId?: string;
  buildDurationMs?: number;
  readyAt?: number;
  crons?: string;
  envHash?: string;
  previousDeploymentId?: string;
  reason?: string;
  source?: 'git' | 'upload';
  sourceArchive?: string;
  pullRequest?: {
    repoId: string;
    number: number;
  };
  previewHost?: string;
  buildMetrics?: {
    restoreMs?: number;
    installMs?: number;
    buildMs?: number;
    uploadMs?: number;
    saveMs?: number;
    depsCache?: 'hit' | 'partial' | 'miss' | 'off';
    nextCache?: 'hit' | 'partial' | 'miss' | 'off';
    packageManager?: string;
    installDir?: string;
  };
  meta?: {
    branch?: string;
    commit?: string;
    dirty?: boolean;
    machine?: string;
  };
};

export type DeploymentRef = {
  deploymentId: string;
  host: string;
  target: 'preview' | 'production';
};

export type Draft = {
  draftId: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text: string;
  html: string | null;
  attachments: (
    | {
        uploadId: string;
      }
    | {
        messageId: string;
        index: number;
      }
  )[];
  inReplyTo: string | null;
  createdAt: number;
  updatedAt: number;
  version: number;
};

export type FunctionConfig = {
  memoryMb: 1024;
  timeoutSeconds: 30;
  architecture: 'arm64';
  runtime: 'nodejs22.x';
};

export type Issue = {
  orgId: string;
  issueId: string;
  spaceId: string;
  number: number;
  key: string;
  typeId: string;
  summary: string;
  statusId: string;
  statusCategory: 'todo' | 'inprogress' | 'done';
  statusChangedAt?: number;
  resolutionId?: string;
  resolvedAt?: number;
  priorityId?: string;
  assigneeId?: string;
  reporterId?: string;
  creatorId?: string;
  labels: string[];
  componentIds: string[];
  fixVersionIds: string[];
  affectsVersionIds: string[];
  dueDate?: string;
  startDate?: string;
  storyPoints?: number;
  originalEstimate?: number;
  remainingEstimate?: number;
  timeSpent?: number;
  environment?: string;
  parentId?: string;
  sprintId?: string;
  closedSprintIds: string[];
  rank: string;
  watchers: string[];
  voters: string[];
  fields: {
    [key: string]: unknown;
  };
  excerpt: string;
  statusLog: ([string, number] | [string, number, string])[];
  fieldLog?: ([string, string[], string[], number] | [string, string[], string[], number, string])[];
  commentCount: number;
  attachmentCount: number;
  requestTypeId?: string;
  channel?: string;
  participants: string[];
  requesterEmail?: string;
  emailParticipants?: string[];
  sla: {
    [key: string]: unknown;
  };
  version: number;
  createdAt: number;
  updatedAt: number;
};

export type IssueAttachment = {
  attachmentId: string;
  issueId: string;
  filename: string;
  contentType: string;
  size: number;
  authorId: string;
  uploaded: boolean;
  createdAt: number;
};

export type IssueComment = {
  commentId: string;
  issueId: string;
  authorId: string;
  body: string;
  createdAt: number;
  updatedAt: number;
};

export type IssueCounts = {
  total: number;
  done: number;
};

export type IssueLink = {
  linkId: string;
  type: string;
  direction: 'outward' | 'inward';
  issueId: string;
  label: string;
  createdAt: number;
};

export type IssuePage = {
  issues: Issue[];
  total: number;
  startAt: number;
  maxResults: number;
  scanned: number;
};

export type IssueSummary = {
  issueId: string;
  key: string;
  summary: string;
  typeId: string;
  statusId: string;
  statusCategory: string;
};

export type IssueTransition = {
  id: string;
  name: string;
  to: string;
  fields: string[];
};

export type LifecycleRule = {
  id: string;
  prefix: string;
  enabled: boolean;
  expirationDays?: number;
  noncurrentDays?: number;
  other: boolean;
};

export type LinkedRepo = {
  resourceId: string;
  name: string;
};

export type Mailbox = {
  mailboxId: string;
  address: string;
  name: string;
  kind: 'personal' | 'shared';
  members: string[];
  aliases: string[];
  createdAt: number;
  updatedAt: number;
  version: number;
};

export type MailDomain = {
  domain: string;
  status: 'pending' | 'verified' | 'failed';
  receiving: boolean;
  catchAll: string | null;
  createdAt: number;
  checkedAt: number | null;
  verifiedAt: number | null;
  version: number;
  records: MailPublishRecord[];
  message?: string;
};

export type MailLabel = {
  labelId: string;
  name: string;
  type: 'system' | 'user';
  parent: string | null;
  total: number;
  unread: number;
};

export type MailPublishRecord = {
  purpose: 'verification' | 'dkim' | 'spf' | 'dmarc' | 'mx';
  type: 'TXT' | 'CNAME' | 'MX';
  name: string;
  value: string;
  found: boolean | null;
};

export type MailSettings = {
  displayName: string | null;
  signature: string | null;
  vacation: {
    enabled: boolean;
    subject: string;
    text: string;
    startsAt: number | null;
    endsAt: number | null;
  } | null;
  vipSenders: string[];
};

export type MailThreadSummary = {
  threadId: string;
  subject: string;
  snippet: string;
  from: Party[];
  to: Party[];
  labels: string[];
  unread: boolean;
  lastAt: number;
  hasAttachment: boolean;
  messageCount: number;
};

export type Message = {
  messageId: string;
  threadId: string;
  direction: 'in' | 'out';
  from: Party | null;
  to: Party[];
  cc: Party[];
  bcc: Party[];
  replyTo: Party[];
  subject: string;
  date: number;
  headerId: string;
  inReplyTo: string | null;
  references: string[];
  snippet: string;
  size: number;
  attachments: {
    index: number;
    filename: string;
    contentType: string;
    size: number;
    contentId: string | null;
    inline: boolean;
  }[];
};

export type NetworkRequest = {
  orgId: string;
  deviceId: string;
  host: string;
  status?: 'pending' | 'approved' | 'denied';
  reason?: string;
  createdAt?: number;
  updatedAt?: number;
};

export type Notice = {
  noticeId: string;
  orgId?: string;
  event: string;
  title: string;
  body?: string;
  url?: string;
  read?: boolean;
  requireAck?: boolean;
  ackedAt?: number;
  createdAt?: number;
};

export type NotificationProtocol = {
  protocolId: string;
  orgId: string;
  name: string;
  description?: string;
  enabled: boolean;
  createdBy: string;
  createdAt?: number;
  updatedAt?: number;
  version?: number;
  rules: {
    events: (
      | 'issue.sla_breached'
      | 'deployment.ready'
      | 'deployment.failed'
      | 'pull_request.preview_ready'
      | 'pull_request.preview_failed'
      | 'account.new_sign_in'
      | 'domain.verified'
      | 'domain.failed'
      | 'issue.assigned'
      | 'issue.mentioned'
      | 'calendar.invite_unanswered'
      | 'calendar.meeting_soon'
      | 'mail.vip'
      | 'agent.job_done'
      | 'agent.job_failed'
      | 'ops.alarm'
      | 'check.completed'
    )[];
    match?: {
      [key: string]: string[];
    };
    steps: {
      afterMinutes: number;
      channels: ('inapp' | 'email' | 'sms' | 'voice')[];
    }[];
    beforeEvent?: boolean;
    roles?: ('owner' | 'admin' | 'developer' | 'viewer')[];
    userIds?: string[];
    overrideQuietHours?: boolean;
  }[];
  attachments: {
    resourceType: 'org' | 'project' | 'agent' | 'mailbox' | 'calendar' | 'space';
    resourceId: string;
    resourceLabel?: string;
  }[];
};

export type NotificationSettings = {
  phone: string | null;
  quietHours: {
    start: string;
    end: string;
    timeZone: string;
  } | null;
};

export type ObjectInfo = {
  key: string;
  size: number;
  contentType?: string;
  lastModified?: number;
  etag?: string;
  storageClass:
    | 'STANDARD'
    | 'STANDARD_IA'
    | 'ONEZONE_IA'
    | 'INTELLIGENT_TIERING'
    | 'REDUCED_REDUNDANCY'
    | 'DEEP_ARCHIVE'
    | 'ARCHIVE'
    | 'ARCHIVE_IR'
    | 'EXPRESS_ONEZONE'
    | 'OUTPOSTS'
    | 'SNOW'
    | 'CLOUD_BACKUP_LOW_COST_WARM'
    | 'CLOUD_BACKUP_WARM'
    | 'FS_ONTAP'
    | 'FS_OPENZFS';
  versionId?: string;
  cacheControl?: string;
  contentEncoding?: string;
  contentDisposition?: string;
  encryption?: 'AES256' | 'cloud:backup' | 'cloud:fs' | 'cloud:kms' | 'cloud:kms:dsse';
  metadata: {
    [key: string]: string;
  };
};

export type Occurrence = {
  eventId: string;
  calendarId: string;
  recurrenceId: number | null;
  start: number;
  end: number;
  allDay: boolean;
  startDate?: string;
  endDate?: string;
  summary: string;
  location: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
  busyStatus: 'free' | 'tentative' | 'busy' | 'oof' | 'workingElsewhere';
  recurring: boolean;
  isException: boolean;
  isOrganizer: boolean;
  attendees: number;
  myStatus: 'accepted' | 'tentative' | 'needs-action' | 'declined' | 'delegated' | null;
};

export type PageVersion = {
  n: number;
  title: string;
  size: number;
  createdAt: number;
  createdBy: string;
  authorName: string | null;
  restoredFrom: number | null;
};

export type Party = {
  name: string;
  address: string;
};

export type Project = {
  projectId: string;
  orgId: string;
  name: string;
  slug: string;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  repoId?: string;
  productionBranch: string;
  framework: 'nextjs' | 'static' | 'node';
  rootDirectory: string;
  buildCommand?: string;
  installCommand?: string;
  outputDirectory?: string;
  previews?: {
    enabled: boolean;
    ignore: string[];
  };
  location: string;
  productionDeploymentId?: string;
  version: number;
  status?: 'deleting' | 'transferring';
};

export type ProjectListEntry = {
  projectId: string;
  orgId: string;
  name: string;
  slug: string;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  repoId?: string;
  productionBranch: string;
  framework: 'nextjs' | 'static' | 'node';
  rootDirectory: string;
  buildCommand?: string;
  installCommand?: string;
  outputDirectory?: string;
  previews?: {
    enabled: boolean;
    ignore: string[];
  };
  location: string;
  productionDeploymentId?: string;
  version: number;
  status?: 'deleting' | 'transferring';
  latest?: Deployment;
  production?: Deployment;
  productionHost?: string;
  repo?: LinkedRepo;
  domains?: CustomDomainSummary[];
};

export type PullRequest = {
  number: number;
  pullRequestId: string;
  orgId: string;
  repoId: string;
  title: string;
  state?: 'open' | 'closed' | 'merged';
  sourceBranch: string;
  targetBranch: string;
  labels?: string[];
  assignees?: string[];
  comments?: number;
  createdAt?: number;
  updatedAt?: number;
  closedAt?: number;
  closedBy?: string;
  authorId: string;
  authorEmail?: string;
  authorName?: string;
  mergeCommitId?: string;
  previousPullRequestIds?: string[];
};

export type PullRequestDetail = {
  number: number;
  pullRequestId: string;
  orgId: string;
  repoId: string;
  title: string;
  state?: 'open' | 'closed' | 'merged';
  sourceBranch: string;
  targetBranch: string;
  labels?: string[];
  assignees?: string[];
  comments?: number;
  createdAt?: number;
  updatedAt?: number;
  closedAt?: number;
  closedBy?: string;
  authorId: string;
  authorEmail?: string;
  authorName?: string;
  mergeCommitId: string | null;
  previousPullRequestIds?: string[];
  description: string;
  base: string | null;
  head: string | null;
  revisionId: string | null;
  sourceBranchExists: boolean | null;
  checks: {
    state: 'none' | 'pending' | 'success' | 'failure';
    total: number;
    counts: {
      queued: number;
      in_progress: number;
      success: number;
      failure: number;
      cancelled: number;
    };
    required: RequiredCheck[];
    requiredStatus: RequiredCheckStatus[];
  };
  preview: {
    url: string;
    state: 'queued' | 'building' | 'ready' | 'error' | 'cancelled' | 'retired';
    deploymentId: string;
    commit: string | null;
    projectId: string;
    skipped: boolean;
  } | null;
  deployment: {
    deploymentId: string;
    status: string;
    host: string | null;
  } | null;
};

export type RepoCredential = {
  keyId: string;
  name: string;
  scopes: string[];
  createdAt: number;
  expiresAt: number | null;
};

export type RepoDetail = {
  resourceId: string;
  name: string;
  description: string | null;
  defaultBranch: string;
  branches: string[];
  tags: string[];
  initialBranch: string;
  protectedBranch: string | null;
  createdAt?: number;
  updatedAt?: number;
  openIssues: number;
  openPulls: number;
  requiredApprovals: number;
  requiredChecks: RequiredCheck[];
  cloneUrl: string;
  empty: boolean;
  status?: string;
};

export type RepoImport = {
  importId: string;
  url: string;
  name: string;
  state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  progress: {
    phase: 'queued' | 'cloning' | 'lfs' | 'pushing' | 'done';
    objects: number;
    bytes: number;
  };
  message: string | null;
  repository: {
    name: string;
    resourceId: string;
  } | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
};

export type RepoIssue = {
  number: number;
  orgId: string;
  repoId: string;
  title: string;
  body?: string;
  state?: 'open' | 'closed';
  labels?: string[];
  assignees?: string[];
  comments?: number;
  createdAt?: number;
  updatedAt?: number;
  closedAt?: number;
  closedBy?: string;
  closedByPull?: number;
  authorId: string;
  authorEmail?: string;
  authorName?: string;
};

export type RepoLabel = {
  name: string;
  color: 'chart-1' | 'chart-2' | 'chart-3' | 'chart-4' | 'chart-5' | 'destructive' | 'primary' | 'muted-foreground';
  description?: string;
};

export type RepoListEntry = {
  name: string;
  resourceId: string;
  description: string | null;
  defaultBranch: string | null;
  createdAt?: number;
  updatedAt?: number;
  language: string | null;
};

export type RequiredCheck =
  | string
  | {
      name: string;
      source: RequiredCheckSource;
    };

export type RequiredCheckSource =
  | 'platform'
  | {
      apiKey: string;
    }
  | {
      agentKey: string;
    };

export type RequiredCheckStatus = {
  name: string;
  source: RequiredCheckSource | null;
  state: 'missing' | 'queued' | 'in_progress' | 'success' | 'failure' | 'cancelled';
  satisfied: boolean;
  checkId: string | null;
  reportedBy: CheckSource | null;
  message: string | null;
};

export type Resource = {
  resourceId: string;
  type: 'repository' | 'database' | 'bucket';
  name: string;
  status?: 'error' | 'active' | 'creating' | 'deleting';
  error?: string;
  description?: string;
  createdAt?: number;
  updatedAt?: number;
  region: string;
  orgId: string;
  createdBy: string;
  projectId?: string;
  location: string;
  arn?: string;
  physicalName: string;
};

export type ReviewThread = {
  id: string;
  path: string | null;
  line: number | null;
  side: 'old' | 'new';
  beforeCommitId: string;
  afterCommitId: string | null;
  outdated: boolean;
  comments: {
    id: string;
    body: string;
    author: {
      id: string | null;
      name: string;
      email: string | null;
    };
    createdAt: number;
    updatedAt: number | null;
    deleted: boolean;
  }[];
};

export type RuntimeLogLine = {
  t: number;
  level: 'error' | 'platform' | 'warn' | 'info' | 'debug';
  requestId?: string;
  message: string;
  truncated?: boolean;
};

export type Sprint = {
  sprintId: string;
  boardId: string;
  name: string;
  goal: string;
  state: 'active' | 'closed' | 'future';
  startDate?: number;
  endDate?: number;
  completedAt?: number;
  position: number;
  createdAt: number;
  data: {
    capacity?: number;
    report?: {
      committed: number;
      added: number;
      removed: number;
      completed: number;
      incomplete: number;
      completedIssueIds: string[];
      incompleteIssueIds: string[];
      carriedTo?: string;
    };
  };
};

export type State = {
  state: 'open' | 'closed' | 'merged';
};

export type StorageFile = {
  key: string;
  size: number;
  lastModified?: number;
  etag?: string;
  storageClass:
    | 'STANDARD'
    | 'STANDARD_IA'
    | 'ONEZONE_IA'
    | 'INTELLIGENT_TIERING'
    | 'REDUCED_REDUNDANCY'
    | 'DEEP_ARCHIVE'
    | 'ARCHIVE'
    | 'ARCHIVE_IR'
    | 'EXPRESS_ONEZONE'
    | 'OUTPOSTS'
    | 'SNOW'
    | 'CLOUD_BACKUP_LOW_COST_WARM'
    | 'CLOUD_BACKUP_WARM'
    | 'FS_ONTAP'
    | 'FS_OPENZFS';
};

export type TailLogLine = {
  t: number;
  level: 'error' | 'platform' | 'warn' | 'info' | 'debug';
  requestId?: string;
  message: string;
  truncated?: boolean;
  id: string;
};

export type TrackerComponent = {
  componentId: string;
  spaceId: string;
  name: string;
  description: string;
  leadId?: string;
  defaultAssignee: 'space' | 'lead' | 'unassigned';
};

export type TrackerSpace = {
  orgId: string;
  spaceId: string;
  key: string;
  name: string;
  description: string;
  template: 'basic' | 'service' | 'scrum' | 'kanban' | 'bugs';
  leadId?: string;
  icon?: string;
  color?: 'gray' | 'blue' | 'green' | 'teal' | 'yellow' | 'orange' | 'red' | 'pink' | 'purple';
  archived: boolean;
  archivedAt?: number;
  seq: number;
  version: number;
  createdAt: number;
  updatedAt: number;
  config: {
    issueTypeIds: string[];
    defaultTypeId: string;
    workflows: {
      [key: string]: string;
    };
    screens: {
      create: {
        [key: string]: string;
      };
      edit: {
        [key: string]: string;
      };
      view: {
        [key: string]: string;
      };
    };
    fieldSettings: {
      [key: string]: {
        required?: boolean;
        hidden?: boolean;
        description?: string;
      };
    };
    customFieldIds: string[];
    access: {
      visibility: 'org' | 'private';
      members: {
        type: 'user' | 'team';
        id: string;
        role: 'admin' | 'viewer' | 'member';
      }[];
    };
    permissionSchemeId?: string;
    securityLevels: {
      id: string;
      name: string;
      description?: string;
      grants: (
        | {
            type: 'spaceRole';
            role: string;
          }
        | {
            type: 'orgRole';
            role: string;
          }
        | {
            type: 'user';
            id: string;
          }
        | {
            type: 'team';
            id: string;
          }
        | {
            type: 'reporter' | 'assignee' | 'lead' | 'anyone';
          }
      )[];
    }[];
    defaultSecurityLevelId?: string;
    notifications: {
      [key: string]: ('participants' | 'assignee' | 'reporter' | 'lead' | 'watchers')[];
    };
    defaultAssignee: 'lead' | 'unassigned';
    estimation: 'count' | 'storyPoints' | 'originalEstimate';
    boardId?: string;
    servicedesk?: {
      requestTypes: {
        id: string;
        name: string;
        description?: string;
        icon?: string;
        typeId: string;
        group?: string;
        fields: string[];
        hidden?: boolean;
      }[];
      queues: {
        id: string;
        name: string;
        query: string;
        columns?: string[];
      }[];
      slas: {
        id: string;
        name: string;
        start: string[];
        pause: string[];
        stop: string[];
        goals: {
          query?: string;
          minutes: number;
          calendar: 'business' | 'always';
        }[];
      }[];
      hours: {
        timeZone: string;
        days: {
          [key: string]: string[];
        };
        holidays: string[];
      };
      portal: {
        enabled: boolean;
        title: string;
        intro: string;
        access: 'any' | 'org' | 'listed';
        customers: string[];
      };
      cannedResponses: {
        id: string;
        name: string;
        body: string;
      }[];
      satisfaction: boolean;
    };
    formerKeys?: string[];
  };
};

export type TrackerVersion = {
  versionId: string;
  spaceId: string;
  name: string;
  description: string;
  startDate?: string;
  releaseDate?: string;
  released: boolean;
  releasedAt?: number;
  archived: boolean;
  position: number;
  data: {
    deployments?: {
      deploymentId: string;
      projectId: string;
      label?: string;
      at: number;
    }[];
  };
};

export type TreeEntry = {
  name: string;
  path: string;
  type: 'file' | 'dir' | 'link' | 'submodule';
  mode: string;
  id: string;
  size: number | null;
};

export type Worklog = {
  worklogId: string;
  issueId: string;
  authorId: string;
  timeSpent: number;
  started: number;
  comment: string;
  createdAt: number;
};

/** Each operation of the API: path parameters, query, body and, where the route declares it, its response. */
export interface Operations {
  /** Liveness: answers without a token */
  getHealth: {
    params: object;
    query: object;
    body: undefined;
    response: {
      ok: true;
      time: number;
    };
  };
  /** The caller: kind, id, email and name where known, organizations with role and kind, scopes */
  getMe: {
    params: object;
    query: object;
    body: undefined;
    response: {
      me: {
        kind: 'user' | 'api_key' | 'agent_key';
        userId?: string;
        keyId?: string;
        email?: string | null;
        name?: string | null;
        scopes?: (
          | 'git:read'
          | 'git:write'
          | 'resources:read'
          | 'resources:write'
          | 'projects:read'
          | 'projects:write'
          | 'deployments:read'
          | 'deployments:write'
          | 'domains:read'
          | 'logs:read'
          | 'env:read'
          | 'env:write'
          | 'members:read'
          | 'members:write'
          | 'org:read'
          | 'org:write'
          | 'agents:read'
          | 'agents:write'
          | 'agents:run'
          | 'connectors:read'
          | 'connectors:write'
          | 'issues:read'
          | 'issues:write'
          | 'calendar:read'
          | 'calendar:write'
          | 'contacts:read'
          | 'contacts:write'
        )[];
        orgs: {
          orgId: string;
          slug: string;
          name: string;
          kind: 'platform' | 'customer';
          role: 'owner' | 'admin' | 'developer' | 'viewer' | null;
          scopes: (
            | 'git:read'
            | 'git:write'
            | 'resources:read'
            | 'resources:write'
            | 'projects:read'
            | 'projects:write'
            | 'deployments:read'
            | 'deployments:write'
            | 'domains:read'
            | 'logs:read'
            | 'env:read'
            | 'env:write'
            | 'members:read'
            | 'members:write'
            | 'org:read'
            | 'org:write'
            | 'agents:read'
            | 'agents:write'
            | 'agents:run'
            | 'connectors:read'
            | 'connectors:write'
            | 'issues:read'
            | 'issues:write'
            | 'calendar:read'
            | 'calendar:write'
            | 'contacts:read'
            | 'contacts:write'
          )[];
        }[];
      };
    };
  };
  /** The locations projects and resources can be placed in, with the default marked */
  getLocations: {
    params: object;
    query: object;
    body: undefined;
    response: {
      locations: {
        id: string;
        name: string;
        region: string;
        default: boolean;
      }[];
      default: string;
    };
  };
  /** Starts a person's login by device code (RFC 8628): the command line shows `userCode` and `verificationUri` for the person to approve while signed in, and asks `login/device/token` every `interval` seconds until then */
  postLoginDevice: {
    params: object;
    query: object;
    body: {
      name?: string;
      platform?: string;
      version?: string;
    };
    response: {
      deviceCode: string;
      userCode: string;
      verificationUri: string;
      verificationUriComplete: string;
      interval: number;
      expiresIn: number;
    };
  };
  /** The session token of an approved login, once (it acts as the person, 90 days): until then 400 `authorization_pending` (`slow_down` when asked more often than `interval`), `access_denied` or `expired_token` */
  postLoginDeviceToken: {
    params: object;
    query: object;
    body: {
      deviceCode: string;
    };
    response: {
      token: string;
      sessionId: string;
      expiresAt: number;
    };
  };
  /** Answers a login's user code as the signed-in person: approved, that command line acts as them */
  postLoginDeviceAnswer: {
    params: object;
    query: object;
    body: {
      userCode: string;
      approve?: boolean;
    };
    response: {
      ok: true;
    };
  };
  /** The person's command-line sessions (never their tokens), newest first */
  getMeSessions: {
    params: object;
    query: object;
    body: undefined;
    response: {
      sessions: {
        sessionId: string;
        label: string;
        createdAt: number;
        expiresAt: number;
      }[];
    };
  };
  /** Ends one of the person's command-line sessions: its token stops working at once */
  deleteMeSessionsBySessionId: {
    params: {
      sessionId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Makes an app password for calendar and contacts programs (CalDAV, CardDAV: the person's email as the user name), scoped to `calendars` and/or `contacts`, `read` or `readwrite` (the default): the password is answered once, never again */
  postMeAppPasswords: {
    params: object;
    query: object;
    body: {
      name: string;
      scopes?: ('calendars' | 'contacts')[];
      access?: 'read' | 'readwrite';
    };
    response: {
      appPassword: {
        passwordId: string;
        name: string;
        scopes: ('calendars' | 'contacts')[];
        access: 'read' | 'readwrite';
        createdAt: number;
        lastUsedAt: number | null;
      };
      password: string;
    };
  };
  /** The person's app passwords, newest first: name, scopes, access, when made and last used (never the password) */
  getMeAppPasswords: {
    params: object;
    query: object;
    body: undefined;
    response: {
      appPasswords: {
        passwordId: string;
        name: string;
        scopes: ('calendars' | 'contacts')[];
        access: 'read' | 'readwrite';
        createdAt: number;
        lastUsedAt: number | null;
      }[];
    };
  };
  /** Revokes one of the person's app passwords: programs signed in with it get 401 from their next request */
  deleteMeAppPasswordsByPasswordId: {
    params: {
      passwordId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** What a device code asks for before the person answers it: `agent-device` (an agent program joining an organization as their device, with its capabilities: answer with `POST /v1/orgs/:orgId/agents/login`) or `command-line` (the CLI signing in as them: answer with `POST /v1/login/device/answer`) */
  getMeDeviceCodesByUserCode: {
    params: {
      userCode: string;
    };
    query: object;
    body: undefined;
    response: {
      deviceCode: {
        kind: 'agent-device' | 'command-line';
        userCode: string;
        name: string | null;
        platform: string | null;
        capabilities: string[];
        status: 'pending' | 'approved' | 'denied' | 'issued';
      };
    };
  };
  /** Beyond the spec */
  postOrgs: {
    params: object;
    query: object;
    body: {
      slug: string;
      name: string;
    };
    response: {
      org: {
        orgId: string;
        slug: string;
        name: string;
        kind: 'platform' | 'customer';
        createdAt?: number;
        updatedAt?: number;
        version: number;
      };
      member: {
        userId: string;
        role: 'owner' | 'admin' | 'developer' | 'viewer';
        email?: string;
        name?: string;
        joinedAt?: number;
      };
    };
  };
  /** Beyond the spec */
  getMeInvites: {
    params: object;
    query: object;
    body: undefined;
    response: {
      invites: {
        inviteId: string;
        email: string;
        role: 'owner' | 'admin' | 'developer' | 'viewer';
        expiresAt: number;
        createdAt?: number;
        org: {
          orgId: string;
          slug: string;
          name: string;
        };
      }[];
    };
  };
  /** Beyond the spec */
  postMeInvitesAccept: {
    params: {
      inviteId: string;
    };
    query: object;
    body: undefined;
    response: {
      org: {
        orgId: string;
        slug: string;
        name: string;
        kind: 'platform' | 'customer';
        createdAt?: number;
        updatedAt?: number;
        version: number;
      };
      member: {
        userId: string;
        role: 'owner' | 'admin' | 'developer' | 'viewer';
        email?: string;
        name?: string;
        joinedAt?: number;
      };
    };
  };
  /** The organization */
  getOrgsByOrgId: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      org: {
        orgId: string;
        slug: string;
        name: string;
        kind: 'platform' | 'customer';
        createdAt?: number;
        updatedAt?: number;
        version: number;
      };
    };
  };
  /** Renames the organization */
  patchOrgsByOrgId: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      name: string;
      ifVersion?: number;
    };
    response: {
      org: {
        orgId: string;
        slug: string;
        name: string;
        kind: 'platform' | 'customer';
        createdAt?: number;
        updatedAt?: number;
        version: number;
      };
    };
  };
  /** Deletes an empty customer organization with its members, teams, invites and keys */
  deleteOrgsByOrgId: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** What must be removed before the organization can be deleted */
  getContents: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      contents: {
        projects: number;
        repositories: number;
        databases: number;
        buckets: number;
        connectors: number;
        agents: number;
        docs: number;
      };
    };
  };
  /** Members and teams */
  getMembers: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      members: {
        userId: string;
        role: 'owner' | 'admin' | 'developer' | 'viewer';
        email?: string;
        name?: string;
        joinedAt?: number;
      }[];
      teams: {
        teamId: string;
        slug: string;
        name: string;
        description?: string;
        members: number;
      }[];
      invites?: {
        inviteId: string;
        email: string;
        role: 'owner' | 'admin' | 'developer' | 'viewer';
        expiresAt: number;
        createdAt?: number;
      }[];
    };
  };
  /** Beyond the spec */
  postMembers: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      email: string;
      role: 'owner' | 'admin' | 'developer' | 'viewer';
    };
    response: {
      member: {
        userId: string;
        role: 'owner' | 'admin' | 'developer' | 'viewer';
        email?: string;
        name?: string;
        joinedAt?: number;
      };
    };
  };
  /** Beyond the spec */
  patchMembersByUserId: {
    params: {
      orgId: string;
      userId: string;
    };
    query: object;
    body: {
      role: 'owner' | 'admin' | 'developer' | 'viewer';
    };
    response: {
      member: {
        userId: string;
        role: 'owner' | 'admin' | 'developer' | 'viewer';
        email?: string;
        name?: string;
        joinedAt?: number;
      };
    };
  };
  /** Beyond the spec */
  deleteMembersByUserId: {
    params: {
      orgId: string;
      userId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Beyond the spec */
  postMembersInvites: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      email: string;
      role: 'owner' | 'admin' | 'developer' | 'viewer';
    };
    response: {
      invite: {
        inviteId: string;
        email: string;
        role: 'owner' | 'admin' | 'developer' | 'viewer';
        expiresAt: number;
        createdAt?: number;
      };
    };
  };
  /** Beyond the spec */
  deleteMembersInvitesByInviteId: {
    params: {
      orgId: string;
      inviteId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Beyond the spec */
  getKeys: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      keys: {
        keyId: string;
        kind: 'api' | 'agent';
        name?: string;
        scopes: (
          | 'git:read'
          | 'git:write'
          | 'resources:read'
          | 'resources:write'
          | 'projects:read'
          | 'projects:write'
          | 'deployments:read'
          | 'deployments:write'
          | 'domains:read'
          | 'logs:read'
          | 'env:read'
          | 'env:write'
          | 'members:read'
          | 'members:write'
          | 'org:read'
          | 'org:write'
          | 'agents:read'
          | 'agents:write'
          | 'agents:run'
          | 'connectors:read'
          | 'connectors:write'
          | 'issues:read'
          | 'issues:write'
          | 'calendar:read'
          | 'calendar:write'
          | 'contacts:read'
          | 'contacts:write'
        )[];
        createdAt: number;
        createdBy?: string;
        expiresAt?: number;
      }[];
    };
  };
  /** Beyond the spec */
  postKeys: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      name: string;
      scopes: (
        | 'git:read'
        | 'git:write'
        | 'resources:read'
        | 'resources:write'
        | 'projects:read'
        | 'projects:write'
        | 'deployments:read'
        | 'deployments:write'
        | 'domains:read'
        | 'logs:read'
        | 'env:read'
        | 'env:write'
        | 'members:read'
        | 'members:write'
        | 'org:read'
        | 'org:write'
        | 'agents:read'
        | 'agents:write'
        | 'agents:run'
        | 'connectors:read'
        | 'connectors:write'
        | 'issues:read'
        | 'issues:write'
        | 'calendar:read'
        | 'calendar:write'
        | 'contacts:read'
        | 'contacts:write'
      )[];
      expiresAt?: number;
    };
    response: {
      key: {
        keyId: string;
        kind: 'api' | 'agent';
        name?: string;
        scopes: (
          | 'git:read'
          | 'git:write'
          | 'resources:read'
          | 'resources:write'
          | 'projects:read'
          | 'projects:write'
          | 'deployments:read'
          | 'deployments:write'
          | 'domains:read'
          | 'logs:read'
          | 'env:read'
          | 'env:write'
          | 'members:read'
          | 'members:write'
          | 'org:read'
          | 'org:write'
          | 'agents:read'
          | 'agents:write'
          | 'agents:run'
          | 'connectors:read'
          | 'connectors:write'
          | 'issues:read'
          | 'issues:write'
          | 'calendar:read'
          | 'calendar:write'
          | 'contacts:read'
          | 'contacts:write'
        )[];
        createdAt: number;
        createdBy?: string;
        expiresAt?: number;
      };
      secret: string;
    };
  };
  /** Beyond the spec */
  deleteKeysByKeyId: {
    params: {
      orgId: string;
      keyId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** The organization's resources, oldest first */
  getResources: {
    params: {
      orgId: string;
    };
    query: {
      type?: 'repository' | 'database' | 'bucket';
    };
    body: undefined;
    response: {
      resources: Resource[];
    };
  };
  /** Creates a database (a table */
  postResources: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      type: 'repository' | 'database' | 'bucket';
      name: string;
      projectId?: string;
      location?: string;
      description?: string;
      partitionKey?: {
        name: string;
        type: 'S' | 'N' | 'B';
      };
      sortKey?: {
        name: string;
        type: 'S' | 'N' | 'B';
      } | null;
    };
    response: {
      resource: Resource;
    };
  };
  /** Links a database or bucket to a project (`projectId`), or unlinks it (`null`) */
  patchResourcesByTypeAndResourceId: {
    params: {
      orgId: string;
      type: string;
      resourceId: string;
    };
    query: object;
    body: {
      projectId: string | null;
    };
    response: {
      resource: Resource;
    };
  };
  /** Deletes the resource and its table or bucket */
  deleteResourcesByTypeAndResourceId: {
    params: {
      orgId: string;
      type: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** The databases, oldest first, each with a summary of its table, or `table: null` with `error` `missing` (no table) or `unavailable` (the table store did not answer) */
  getDatabases: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      databases: (
        | {
            resourceId: string;
            type: 'repository' | 'database' | 'bucket';
            name: string;
            status?: 'error' | 'active' | 'creating' | 'deleting';
            error?: string;
            description?: string;
            createdAt?: number;
            updatedAt?: number;
            region: string;
            orgId: string;
            createdBy: string;
            projectId?: string;
            location: string;
            arn?: string;
            physicalName: string;
            table: {
              status: string;
              itemCount: number;
              sizeBytes: number;
              partitionKey: {
                name: string;
                type: 'S' | 'N' | 'B';
              };
              sortKey?: {
                name: string;
                type: 'S' | 'N' | 'B';
              };
              indexCount: number;
              deletionProtection: boolean;
            };
          }
        | {
            resourceId: string;
            type: 'repository' | 'database' | 'bucket';
            name: string;
            status?: 'error' | 'active' | 'creating' | 'deleting';
            error: 'missing' | 'unavailable';
            description?: string;
            createdAt?: number;
            updatedAt?: number;
            region: string;
            orgId: string;
            createdBy: string;
            projectId?: string;
            location: string;
            arn?: string;
            physicalName: string;
            table: null;
          }
      )[];
    };
  };
  /** The database and its table description */
  getDatabasesByResourceId: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: {
      database: Resource;
      table: {
        name: string;
        status: string;
        partitionKey: {
          name: string;
          type: 'S' | 'N' | 'B';
        };
        sortKey?: {
          name: string;
          type: 'S' | 'N' | 'B';
        };
        indexes: {
          name: string;
          kind: 'local' | 'global';
          partitionKey: {
            name: string;
            type: 'S' | 'N' | 'B';
          };
          sortKey?: {
            name: string;
            type: 'S' | 'N' | 'B';
          };
          projection: {
            type: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
            attributes?: string[];
          };
          status?: string;
          backfilling?: boolean;
          itemCount?: number;
          sizeBytes?: number;
        }[];
        itemCount: number;
        sizeBytes: number;
        billingMode: 'PAY_PER_REQUEST' | 'PROVISIONED';
        tableClass: 'STANDARD' | 'STANDARD_INFREQUENT_ACCESS';
        deletionProtection: boolean;
        createdAt?: number;
      } | null;
    };
  };
  /** Deletes the database and its table (the same deletion as DELETE .../resources/database/:resourceId) */
  deleteDatabasesByResourceId: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** One page of a scan of the table or an index, with optional filters and projection */
  postDatabasesScan: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: {
      index?: string;
      limit?: number;
      cursor?: string;
      filters?: {
        attribute: string;
        op: '=' | '<>' | '<' | '<=' | '>' | '>=' | 'begins_with' | 'contains' | 'between' | 'exists' | 'not_exists';
        value?: unknown;
        value2?: unknown;
      }[];
      match?: 'all' | 'any';
      projection?: string[];
    };
    response: {
      items: {
        [key: string]:
          | {
              S: string;
            }
          | {
              N: string;
            }
          | {
              B: string;
            }
          | {
              BOOL: boolean;
            }
          | {
              NULL: true;
            }
          | {
              M: {
                [key: string]: unknown;
              };
            }
          | {
              L: unknown[];
            }
          | {
              SS: string[];
            }
          | {
              NS: string[];
            }
          | {
              BS: string[];
            };
      }[];
      count: number;
      scanned: number;
      cursor?: string;
      consumed?: number;
    };
  };
  /** One page of a query on the table or an index: one partition, an optional sort key condition */
  postDatabasesQuery: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: {
      index?: string;
      limit?: number;
      cursor?: string;
      filters?: {
        attribute: string;
        op: '=' | '<>' | '<' | '<=' | '>' | '>=' | 'begins_with' | 'contains' | 'between' | 'exists' | 'not_exists';
        value?: unknown;
        value2?: unknown;
      }[];
      match?: 'all' | 'any';
      projection?: string[];
      partition: unknown;
      sort?: {
        op: '=' | '<' | '<=' | '>' | '>=' | 'begins_with' | 'between';
        value?: unknown;
        value2?: unknown;
      };
      forward?: boolean;
    };
    response: {
      items: {
        [key: string]:
          | {
              S: string;
            }
          | {
              N: string;
            }
          | {
              B: string;
            }
          | {
              BOOL: boolean;
            }
          | {
              NULL: true;
            }
          | {
              M: {
                [key: string]: unknown;
              };
            }
          | {
              L: unknown[];
            }
          | {
              SS: string[];
            }
          | {
              NS: string[];
            }
          | {
              BS: string[];
            };
      }[];
      count: number;
      scanned: number;
      cursor?: string;
      consumed?: number;
    };
  };
  /** One item, read strongly consistent */
  postDatabasesItemsGet: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: {
      key: {
        [key: string]: unknown;
      };
    };
    response: {
      item: {
        [key: string]:
          | {
              S: string;
            }
          | {
              N: string;
            }
          | {
              B: string;
            }
          | {
              BOOL: boolean;
            }
          | {
              NULL: true;
            }
          | {
              M: {
                [key: string]: unknown;
              };
            }
          | {
              L: unknown[];
            }
          | {
              SS: string[];
            }
          | {
              NS: string[];
            }
          | {
              BS: string[];
            };
      };
    };
  };
  /** Writes an item */
  putDatabasesItems: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: {
      item: {
        [key: string]: unknown;
      };
      original?: {
        [key: string]: unknown;
      };
    };
    response: {
      item: {
        [key: string]:
          | {
              S: string;
            }
          | {
              N: string;
            }
          | {
              B: string;
            }
          | {
              BOOL: boolean;
            }
          | {
              NULL: true;
            }
          | {
              M: {
                [key: string]: unknown;
              };
            }
          | {
              L: unknown[];
            }
          | {
              SS: string[];
            }
          | {
              NS: string[];
            }
          | {
              BS: string[];
            };
      };
    };
  };
  /** Deletes one item by its key */
  postDatabasesItemsDelete: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: {
      key: {
        [key: string]: unknown;
      };
    };
    response: undefined;
  };
  /** Adds a global secondary index */
  postDatabasesIndexes: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: {
      name: string;
      partitionKey: {
        name: string;
        type: 'S' | 'N' | 'B';
      };
      sortKey?: {
        name: string;
        type: 'S' | 'N' | 'B';
      };
      projection: {
        type: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
        attributes?: string[];
      };
    };
    response: {
      table: {
        name: string;
        status: string;
        partitionKey: {
          name: string;
          type: 'S' | 'N' | 'B';
        };
        sortKey?: {
          name: string;
          type: 'S' | 'N' | 'B';
        };
        indexes: {
          name: string;
          kind: 'local' | 'global';
          partitionKey: {
            name: string;
            type: 'S' | 'N' | 'B';
          };
          sortKey?: {
            name: string;
            type: 'S' | 'N' | 'B';
          };
          projection: {
            type: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
            attributes?: string[];
          };
          status?: string;
          backfilling?: boolean;
          itemCount?: number;
          sizeBytes?: number;
        }[];
        itemCount: number;
        sizeBytes: number;
        billingMode: 'PAY_PER_REQUEST' | 'PROVISIONED';
        tableClass: 'STANDARD' | 'STANDARD_INFREQUENT_ACCESS';
        deletionProtection: boolean;
        createdAt?: number;
      };
    };
  };
  /** Removes a global secondary index */
  deleteDatabasesIndexesByIndexName: {
    params: {
      orgId: string;
      resourceId: string;
      indexName: string;
    };
    query: object;
    body: undefined;
    response: {
      table: {
        name: string;
        status: string;
        partitionKey: {
          name: string;
          type: 'S' | 'N' | 'B';
        };
        sortKey?: {
          name: string;
          type: 'S' | 'N' | 'B';
        };
        indexes: {
          name: string;
          kind: 'local' | 'global';
          partitionKey: {
            name: string;
            type: 'S' | 'N' | 'B';
          };
          sortKey?: {
            name: string;
            type: 'S' | 'N' | 'B';
          };
          projection: {
            type: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
            attributes?: string[];
          };
          status?: string;
          backfilling?: boolean;
          itemCount?: number;
          sizeBytes?: number;
        }[];
        itemCount: number;
        sizeBytes: number;
        billingMode: 'PAY_PER_REQUEST' | 'PROVISIONED';
        tableClass: 'STANDARD' | 'STANDARD_INFREQUENT_ACCESS';
        deletionProtection: boolean;
        createdAt?: number;
      };
    };
  };
  /** Items and bytes of the table and its indexes, and provisioned capacity, as DynamoDB describes them */
  getDatabasesMetrics: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: {
      metrics: {
        itemCount: number;
        sizeBytes: number;
        averageItemBytes: number;
        indexes: {
          name: string;
          status: string;
          itemCount: number;
          sizeBytes: number;
        }[];
        billingMode: 'PAY_PER_REQUEST' | 'PROVISIONED';
        capacity: {
          read: number;
          write: number;
        } | null;
        source: 'DescribeTable';
        refreshedEvery: '6 hours';
        at: number;
      };
    };
  };
  /** Deletion protection, point-in-time recovery, time to live, table class, billing mode and capacity, tags */
  getDatabasesSettings: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: {
      settings: {
        deletionProtection: boolean;
        pointInTimeRecovery: {
          enabled: boolean;
          supported: boolean;
        };
        ttl: {
          attribute: string | null;
          enabled: boolean;
          status: 'ENABLING' | 'DISABLING' | 'ENABLED' | 'DISABLED';
          supported: boolean;
        };
        tableClass: 'STANDARD' | 'STANDARD_INFREQUENT_ACCESS';
        billingMode: 'PAY_PER_REQUEST' | 'PROVISIONED';
        capacity: {
          read: number;
          write: number;
        } | null;
        tags: {
          [key: string]: string;
        };
        unsupported: ('pointInTimeRecovery' | 'tableClass' | 'tags')[];
        notes: string[];
      };
    };
  };
  /** Changes settings */
  patchDatabasesSettings: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: {
      deletionProtection?: boolean;
      pointInTimeRecovery?: boolean;
      ttl?: {
        enabled: boolean;
        attribute?: string;
      };
      tableClass?: 'STANDARD' | 'STANDARD_INFREQUENT_ACCESS';
      billingMode?: 'PAY_PER_REQUEST' | 'PROVISIONED';
      capacity?: {
        read: number;
        write: number;
      };
    };
    response: {
      settings: {
        deletionProtection: boolean;
        pointInTimeRecovery: {
          enabled: boolean;
          supported: boolean;
        };
        ttl: {
          attribute: string | null;
          enabled: boolean;
          status: 'ENABLING' | 'DISABLING' | 'ENABLED' | 'DISABLED';
          supported: boolean;
        };
        tableClass: 'STANDARD' | 'STANDARD_INFREQUENT_ACCESS';
        billingMode: 'PAY_PER_REQUEST' | 'PROVISIONED';
        capacity: {
          read: number;
          write: number;
        } | null;
        tags: {
          [key: string]: string;
        };
        unsupported: ('pointInTimeRecovery' | 'tableClass' | 'tags')[];
        notes: string[];
      };
      applied: ('deletionProtection' | 'billingMode' | 'capacity' | 'tableClass' | 'ttl' | 'pointInTimeRecovery')[];
      skipped: ('deletionProtection' | 'billingMode' | 'capacity' | 'tableClass' | 'ttl' | 'pointInTimeRecovery')[];
    };
  };
  /** Sets (`"key": "value"`) and removes (`"key": null`) tags */
  patchDatabasesTags: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: {
      tags: {
        [key: string]: string | null;
      };
    };
    response: {
      tags: {
        [key: string]: string;
      };
      applied: boolean;
      notes: string[];
    };
  };
  /** The organization's buckets, each with its latest daily usage (null until measured) */
  getStorage: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      buckets: {
        resourceId: string;
        type: 'repository' | 'database' | 'bucket';
        name: string;
        status?: 'error' | 'active' | 'creating' | 'deleting';
        error?: string;
        description?: string;
        createdAt?: number;
        updatedAt?: number;
        region: string;
        orgId: string;
        createdBy: string;
        projectId?: string;
        location: string;
        arn?: string;
        physicalName: string;
        usage: {
          sizeBytes?: number;
          objects?: number;
          at?: number;
        } | null;
      }[];
    };
  };
  /** A bucket with its versioning status (null when unknown) and latest daily usage */
  getStorageByResourceId: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: {
      bucket: Resource;
      versioning: 'Enabled' | 'Suspended' | 'Disabled' | null;
      usage: {
        sizeBytes?: number;
        objects?: number;
        at?: number;
      } | null;
    };
  };
  /** Deletes a bucket without files, its old file versions (in batches: 409 `Still removing …` means call again) and its record */
  deleteStorageByResourceId: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** One page of a folder: its sub-folders and files */
  getStorageObjects: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: {
      prefix?: string;
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      prefix: string;
      folders: string[];
      files: StorageFile[];
      cursor: string | null;
    };
  };
  /** A file's metadata */
  getStorageObject: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: {
      key: string;
    };
    body: undefined;
    response: {
      object: ObjectInfo;
    };
  };
  /** A presigned GET link to the file, valid five minutes */
  getStorageDownload: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: {
      key: string;
    };
    body: undefined;
    response: {
      url: string;
      expiresIn: number;
    };
  };
  /** Presigned PUT links, valid 15 minutes, one per file (up to 1,000), each bound to the declared content type and size: send exactly those as Content-Type and Content-Length */
  postStorageUploads: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: {
      files: {
        key: string;
        contentType: string;
        size: number;
      }[];
    };
    response: {
      uploads: {
        key: string;
        url: string;
        contentType: string;
      }[];
      expiresIn: number;
    };
  };
  /** Creates an empty folder `<prefix><name>/` */
  postStorageFolders: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: {
      prefix?: string;
      name: string;
    };
    response: {
      key: string;
    };
  };
  /** Deletes files (up to 1,000 keys) and folders with their contents, at most 1,000 files of the folders per call: `done: false` means call again with the same body */
  postStorageObjectsDelete: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: {
      keys?: string[];
      prefixes?: string[];
    };
    response: {
      deleted: number;
      done: boolean;
    };
  };
  /** Versioning, the customer's CORS rules, the platform's upload rule, lifecycle rules, public access */
  getStorageSettings: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: {
      versioning: 'Enabled' | 'Suspended' | 'Disabled';
      cors: CorsRule[];
      cloudCors: CorsRule;
      lifecycle: LifecycleRule[];
      publicAccessBlocked: boolean;
    };
  };
  /** Replaces the bucket's CORS rules (up to 99) */
  putStorageCors: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: {
      rules: {
        ID?: string;
        AllowedOrigins: string[];
        AllowedMethods: ('GET' | 'PUT' | 'POST' | 'DELETE' | 'HEAD')[];
        AllowedHeaders?: string[];
        ExposeHeaders?: string[];
        MaxAgeSeconds?: number;
      }[];
    };
    response: {
      cors: CorsRule[];
    };
  };
  /** Turns versioning on (`enabled: true`) or suspends it */
  putStorageVersioning: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: {
      enabled: boolean;
    };
    response: {
      versioning: 'Enabled' | 'Suspended';
    };
  };
  /** Adds a rule deleting files under a prefix a number of days after they are written */
  postStorageLifecycle: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: {
      prefix?: string;
      days: number;
      noncurrentDays?: number;
    };
    response: {
      rule: LifecycleRule;
      lifecycle: LifecycleRule[];
    };
  };
  /** Removes a lifecycle rule */
  deleteStorageLifecycleByRuleId: {
    params: {
      orgId: string;
      resourceId: string;
      ruleId: string;
    };
    query: object;
    body: undefined;
    response: {
      lifecycle: LifecycleRule[];
    };
  };
  /** Projects, by name */
  getProjects: {
    params: {
      orgId: string;
    };
    query: {
      include?: 'summary';
    };
    body: undefined;
    response: {
      projects: ProjectListEntry[];
    };
  };
  /** Creates a project */
  postProjects: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      name: string;
      slug: string;
      repoId?: string;
      framework?: 'nextjs' | 'static' | 'node';
      rootDirectory?: string;
      location?: string;
    };
    response: {
      project: Project;
      deployment: null;
    };
  };
  /** The project with its 10 most recent deployments, production deployment and host, repository, domains and function configuration */
  getProjectsByProjectId: {
    params: {
      orgId: string;
      projectId: string;
    };
    query: object;
    body: undefined;
    response: {
      project: Project;
      productionHost?: string;
      deployments: Deployment[];
      production?: Deployment;
      repo?: LinkedRepo;
      domains: CustomDomain[];
      functionConfig: FunctionConfig;
    };
  };
  /** Changes project settings */
  patchProjectsByProjectId: {
    params: {
      orgId: string;
      projectId: string;
    };
    query: object;
    body: {
      name?: string;
      slug?: string;
      framework?: 'nextjs' | 'static' | 'node';
      repoId?: string | null;
      productionBranch?: string;
      rootDirectory?: string;
      buildCommand?: string | null;
      installCommand?: string | null;
      outputDirectory?: string | null;
      previews?: {
        enabled?: boolean;
        ignore?: string[];
      };
      location?: string;
      ifVersion?: number;
    };
    response: {
      project: Project;
      deployment?: null;
    };
  };
  /** Deletes the project with its domains, crons, server functions, routes, deployment records and variables */
  deleteProjectsByProjectId: {
    params: {
      orgId: string;
      projectId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Moves the project, with its deployments, domains, variables (re-encrypted) and crons, to another organization the caller administers */
  postProjectsTransfer: {
    params: {
      orgId: string;
      projectId: string;
    };
    query: object;
    body: {
      orgId: string;
    };
    response: {
      project: Project;
      org: {
        orgId: string;
        slug: string;
      };
    };
  };
  /** The variables, sorted by key */
  getProjectsEnv: {
    params: {
      orgId: string;
      projectId: string;
    };
    query: object;
    body: undefined;
    response: {
      vars: {
        key: string;
        orgId: string;
        projectId: string;
        value: string | null;
        targets: ('production' | 'preview' | 'development')[];
        sensitive: boolean;
        updatedBy: string;
        createdAt: number;
        updatedAt: number;
      }[];
    };
  };
  /** Creates or replaces up to 200 variables with the same targets and sensitivity */
  postProjectsEnv: {
    params: {
      orgId: string;
      projectId: string;
    };
    query: object;
    body: {
      vars: {
        key: string;
        value: string;
      }[];
      targets: ('production' | 'preview' | 'development')[];
      sensitive?: boolean;
    };
    response: {
      keys: string[];
      targets: ('production' | 'preview' | 'development')[];
      sensitive: boolean;
    };
  };
  /** Creates or replaces one variable */
  putProjectsEnvByKey: {
    params: {
      orgId: string;
      projectId: string;
      key: string;
    };
    query: object;
    body: {
      value?: string;
      targets: ('production' | 'preview' | 'development')[];
      sensitive?: boolean;
    };
    response: {
      key: string;
      targets: ('production' | 'preview' | 'development')[];
      sensitive: boolean;
    };
  };
  /** Deletes one variable (204 also when it did not exist) */
  deleteProjectsEnvByKey: {
    params: {
      orgId: string;
      projectId: string;
      key: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** A presigned PUT link (15 minutes) for one source archive (gzipped tar, at most 250 MB), sent with exactly the returned headers */
  postProjectsUploads: {
    params: {
      orgId: string;
      projectId: string;
    };
    query: object;
    body: {
      size: number;
    };
    response: {
      uploadId: string;
      url: string;
      headers: {
        'content-type': string;
        'content-length': string;
      };
      expiresIn: number;
    };
  };
  /** Starts a deployment of a commit of the linked repository (git) or of an uploaded archive (upload) */
  postProjectsDeployments: {
    params: {
      orgId: string;
      projectId: string;
    };
    query: object;
    body: {
      source: 'git' | 'upload';
      branch?: string;
      commitSha?: string;
      uploadId?: string;
      target?: 'production' | 'preview';
      force?: boolean;
      manifest?: {
        [key: string]: unknown;
      };
      meta?: {
        branch?: string;
        commit?: string;
        dirty?: boolean;
        machine?: string;
      };
    };
    response:
      | {
          deployment: {
            deploymentId: string;
            host?: string;
            target: 'preview' | 'production';
          };
          existing: true;
        }
      | {
          deployment: DeploymentRef;
          existing: false;
        };
  };
  /** The build log from the cursor on */
  getDeploymentsBuildLog: {
    params: {
      orgId: string;
      deploymentId: string;
    };
    query: {
      cursor?: string;
    };
    body: undefined;
    response: {
      lines: BuildLogLine[];
      cursor: string | null;
      status: 'queued' | 'building' | 'deploying' | 'ready' | 'error' | 'canceled' | 'expired' | 'skipped';
      error: string | null;
      done: boolean;
    };
  };
  /** Server-function log lines since `since` (epoch ms, at most one hour back, default the last minute), oldest first, each with an id */
  getDeploymentsRuntimeLogsTail: {
    params: {
      orgId: string;
      deploymentId: string;
    };
    query: {
      since?: number;
      q?: string;
    };
    body: undefined;
    response:
      | {
          available: false;
          lines: RuntimeLogLine[];
          next: number;
          more: false;
        }
      | {
          available: true;
          lines: TailLogLine[];
          next: number;
          more: boolean;
        };
  };
  /** Deployments, newest first, filtered by project, target, status and branch */
  getDeployments: {
    params: {
      orgId: string;
    };
    query: {
      projectId?: string;
      target?: 'production' | 'preview';
      status?: 'queued' | 'building' | 'deploying' | 'ready' | 'error' | 'canceled' | 'expired' | 'skipped';
      branch?: string;
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      deployments: Deployment[];
      cursor: string | null;
    };
  };
  /** The deployment with its project's summary, production host, domains and server function */
  getDeploymentsByDeploymentId: {
    params: {
      orgId: string;
      deploymentId: string;
    };
    query: object;
    body: undefined;
    response: {
      deployment: Deployment;
      project: {
        projectId: string;
        name: string;
        slug: string;
        productionDeploymentId?: string;
        repoId?: string;
        framework?: 'nextjs' | 'static' | 'node';
        location: string;
        rootDirectory?: string;
      };
      productionHost?: string;
      domains: {
        hostname: string;
        status?: 'error' | 'active' | 'pending' | 'verifying';
        redirectTo?: string;
      }[];
      function: {
        region: string;
        name: string;
        memoryMb: number;
        timeoutSeconds: number;
        architecture: string;
        runtime: string;
      } | null;
    };
  };
  /** The build output from the first step (up to 5,000 lines) */
  getDeploymentsLogs: {
    params: {
      orgId: string;
      deploymentId: string;
    };
    query: object;
    body: undefined;
    response: {
      lines: {
        t?: number;
        m: string;
      }[];
    };
  };
  /** The server function's logs of the last hour, newest first */
  getDeploymentsRuntimeLogs: {
    params: {
      orgId: string;
      deploymentId: string;
    };
    query: {
      q?: string;
    };
    body: undefined;
    response:
      | {
          available: false;
          lines: RuntimeLogLine[];
        }
      | {
          available: true;
          lines: RuntimeLogLine[];
          from: number;
          to: number;
          limited: boolean;
        };
  };
  /** Builds the same source again as a new deployment of the same target */
  postDeploymentsRedeploy: {
    params: {
      orgId: string;
      deploymentId: string;
    };
    query: object;
    body: undefined;
    response: {
      deployment: DeploymentRef;
    };
  };
  /** Makes a ready deployment the production deployment, without a rebuild: it keeps the variables it was built with */
  postDeploymentsPromote: {
    params: {
      orgId: string;
      deploymentId: string;
    };
    query: object;
    body: {
      force?: boolean;
    };
    response: {
      deployment: Deployment;
      productionHost: string;
    };
  };
  /** Cancels a deployment still queued, building or deploying: it becomes canceled and its build is stopped */
  postDeploymentsCancel: {
    params: {
      orgId: string;
      deploymentId: string;
    };
    query: object;
    body: undefined;
    response: {
      deployment: Deployment;
    };
  };
  /** Imports an existing repository by its git URL (every branch and tag, and its Git LFS objects when the source serves them) as background work where builds run */
  postReposImports: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      url: string;
      name?: string;
      description?: string;
      username?: string;
      password?: string;
    };
    response: {
      import: RepoImport;
    };
  };
  /** The organization's imports, newest first, `limit` a page (cursor: `nextCursor`) */
  getReposImports: {
    params: {
      orgId: string;
    };
    query: {
      limit?: number;
      cursor?: string;
    };
    body: undefined;
    response: {
      imports: RepoImport[];
      nextCursor: string | null;
    };
  };
  /** An import: its state, progress (`phase`, `objects`, `bytes`), message and, once done, its repository */
  getReposImportsByImportId: {
    params: {
      orgId: string;
      importId: string;
    };
    query: object;
    body: undefined;
    response: {
      import: RepoImport;
    };
  };
  /** Cancels a queued or running import: its work stops and the repository it was filling is removed */
  postReposImportsCancel: {
    params: {
      orgId: string;
      importId: string;
    };
    query: object;
    body: undefined;
    response: {
      import: RepoImport;
    };
  };
  /** The organization's repositories, by name */
  getRepos: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      repos: RepoListEntry[];
    };
  };
  /** Creates a repository, empty unless a README, a .gitignore template or a license is asked for (then one first commit holds them) */
  postRepos: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      name: string;
      description?: string;
      readme?: boolean;
      gitignore?: 'Node' | 'Next.js' | 'Python' | 'Go' | 'Rust';
      license?: 'MIT' | 'Apache-2.0';
      defaultBranch?: string;
      location?: string;
    };
    response: {
      repo: {
        resourceId: string;
        type: 'repository' | 'database' | 'bucket';
        name: string;
        status?: 'error' | 'active' | 'creating' | 'deleting';
        error?: string;
        description?: string;
        createdAt?: number;
        updatedAt?: number;
        region: string;
        orgId: string;
        createdBy: string;
        projectId?: string;
        location: string;
        arn?: string;
        physicalName: string;
        defaultBranch: string;
        empty: boolean;
        cloneUrl: string;
      };
    };
  };
  /** Whether a name can be used for a new repository: `reason` is `format` or `taken` when it cannot */
  getReposAvailable: {
    params: {
      orgId: string;
    };
    query: {
      name: string;
    };
    body: undefined;
    response: {
      name: string;
      available: boolean;
      reason: 'format' | 'taken' | null;
    };
  };
  /** The members who can be assigned or mentioned, each with a handle unique in the organization */
  getReposPeople: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      people: {
        userId: string;
        name: string | null;
        email: string;
        handle: string;
      }[];
    };
  };
  /** Renames a repository */
  postReposRename: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: {
      name: string;
    };
    response: {
      name: string;
    };
  };
  /** Deletes a repository and its history */
  deleteReposByName: {
    params: {
      orgId: string;
      name: string;
    };
    query: {
      confirm?: string;
    };
    body: undefined;
    response: undefined;
  };
  /** A repository with its branches, tags, protection, clone URL and counts */
  getReposByName: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: undefined;
    response: RepoDetail;
  };
  /** Changes the description (null removes it) or the default branch (one that exists) */
  patchReposByName: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: {
      description?: string | null;
      defaultBranch?: string;
    };
    response: {
      repo: RepoDetail;
    };
  };
  /** The approvals and the checks pull requests into the default branch need */
  getReposProtection: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: undefined;
    response: BranchProtection;
  };
  /** Protects the default branch: it then changes only through pull requests with this many approvals and these checks `success` on their head (`requiredChecks`, up to 20) */
  putReposProtection: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: {
      requiredApprovals?: number;
      requiredChecks?: (
        | string
        | {
            name: string;
            source?:
              | 'platform'
              | {
                  apiKey: string;
                }
              | {
                  agentKey: string;
                };
          }
      )[];
    };
    response: BranchProtection;
  };
  /** Branches with their commits */
  getReposBranches: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: undefined;
    response: {
      defaultBranch: string;
      branches: {
        name: string;
        commit: string;
        isDefault: boolean;
        protected: boolean;
        openPull: number | null;
      }[];
    };
  };
  /** Creates a branch from a branch, a tag or a commit */
  postReposBranches: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: {
      name: string;
      from: string;
    };
    response: {
      branch: {
        name: string;
        commitId: string;
      };
    };
  };
  /** Deletes a branch (never the default one) */
  deleteReposBranches: {
    params: {
      orgId: string;
      name: string;
    };
    query: object & {
      query: {
        name: string;
      };
    };
    body: undefined;
    response: {
      deleted: string;
      commitId: string;
    };
  };
  /** Tags (pushed with git): annotated or not, the object they point at and their commit */
  getReposTags: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: undefined;
    response: {
      tags: {
        name: string;
        annotated: boolean;
        object: string;
        commit: string;
      }[];
    };
  };
  /** Commits file changes (put with base64 content, move, delete) on `branch`, or on a `newBranch` made from it, only if the branch is still at `parentCommitId` */
  postReposContents: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: {
      branch: string;
      parentCommitId?: string;
      message: string;
      description?: string;
      newBranch?: string;
      changes: (
        | {
            action: 'put';
            path: string;
            content?: string;
            uploadId?: string;
          }
        | {
            action: 'move';
            from: string;
            path: string;
            content?: string;
            uploadId?: string;
          }
        | {
            action: 'delete';
            path: string;
          }
      )[];
    };
    response: {
      commitId?: string;
      branch: string;
    };
  };
  /** Presigned PUTs for files of a web commit (1-100 files, 4 MB in all, as web commits): PUT each file to its `url` with exactly its `headers` within 15 minutes, then commit with `uploadId` instead of `content` */
  postReposContentsUploads: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: {
      files: {
        path: string;
        size: number;
      }[];
    };
    response: {
      uploads: {
        path: string;
        uploadId: string;
        url: string;
        headers: {
          [key: string]: string;
        };
        expiresIn: number;
      }[];
    };
  };
  /** An archive of a branch, tag or commit (default: the default branch), `zip` (default) or `tar.gz`, as `git archive` makes it */
  postReposContentsArchive: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: {
      ref?: string;
      format?: 'zip' | 'tar.gz';
    };
    response:
      | {
          archive: {
            status: 'ready';
            commitId: string;
            format: 'zip' | 'tar.gz';
            size: number;
            url: string;
            expiresIn: number;
          };
        }
      | {
          archive: {
            status: 'building';
            commitId: string;
            format: 'zip' | 'tar.gz';
          };
        };
  };
  /** A file's bytes at a ref, as application/octet-stream (never rendered) */
  getReposContentsRaw: {
    params: {
      orgId: string;
      name: string;
    };
    query: {
      ref?: string;
      path: string;
    };
    body: undefined;
    response: string;
  };
  /** Every file of a ref (path, blob id, mode, file or link), up to 10,000 (`truncated` past that) */
  getReposContentsFiles: {
    params: {
      orgId: string;
      name: string;
    };
    query: {
      ref: string;
    };
    body: undefined;
    response: {
      files: {
        path: string;
        blobId: string;
        mode: string;
        type: 'file' | 'link';
      }[];
      truncated: boolean;
      commitId: string;
    };
  };
  /** Blobs by id, base64, in request order, as many as fit in 4 MB */
  postReposContentsBlobs: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: {
      ids: string[];
    };
    response: {
      blobs: {
        id: string;
        content?: string;
        tooLarge?: true;
      }[];
    };
  };
  /** Commits of a ref (the default branch unless given), newest first, optionally touching `path` */
  getReposCommits: {
    params: {
      orgId: string;
      name: string;
    };
    query: {
      ref?: string;
      path?: string;
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      commits: Commit[];
      cursor: string | null;
    };
  };
  /** The newest commit of a ref that touched `path` (the whole tree without it) */
  getReposLastCommit: {
    params: {
      orgId: string;
      name: string;
    };
    query: {
      ref?: string;
      path?: string;
    };
    body: undefined;
    response: {
      commit: Commit | null;
    };
  };
  /** The repository's labels */
  getReposLabels: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: undefined;
    response: {
      labels: RepoLabel[];
    };
  };
  /** Creates or replaces a label by name */
  putReposLabels: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: {
      name: string;
      color: 'chart-1' | 'chart-2' | 'chart-3' | 'chart-4' | 'chart-5' | 'destructive' | 'primary' | 'muted-foreground';
      description?: string;
    };
    response: {
      label: RepoLabel;
    };
  };
  /** Removes a label */
  deleteReposLabels: {
    params: {
      orgId: string;
      name: string;
    };
    query: object & {
      query: {
        name: string;
      };
    };
    body: undefined;
    response: undefined;
  };
  /** Compares head with base as a pull request would: their merge base, how far apart they are, the commits and files head brings (up to 250 commits and 300 files), the merge strategies that would succeed now and the conflicts a merge would meet */
  getReposCompare: {
    params: {
      orgId: string;
      name: string;
    };
    query: {
      base: string;
      head: string;
    };
    body: undefined;
    response: {
      mergeBase: string | null;
      status: 'identical' | 'ahead' | 'behind' | 'diverged';
      aheadBy: number;
      behindBy: number;
      exact: boolean;
      commits: Commit[];
      commitsTruncated: boolean;
      files: ChangedFile[];
      total: number;
      truncated: boolean;
      mergeOptions: ('fast-forward' | 'squash' | 'three-way')[];
      conflicts: Conflict[];
      base: {
        ref: string;
        commitId: string;
      };
      head: {
        ref: string;
        commitId: string;
      };
      pull: number | null;
    };
  };
  /** Activity of a ref (the default branch unless given) over the last 52 weeks: commits per week (weeks start Monday, UTC) and the ten authors with the most commits */
  getReposInsights: {
    params: {
      orgId: string;
      name: string;
    };
    query: {
      ref?: string;
    };
    body: undefined;
    response: {
      ref: string;
      commitId: string | null;
      weeks: {
        weekStart: number;
        commits: number;
      }[];
      contributors: {
        name: string | null;
        email: string | null;
        commits: number;
      }[];
      totalCommits: number;
      truncated: boolean;
    };
  };
  /** A folder of a ref (the default branch unless given): folders first, then files, by name */
  getReposTree: {
    params: {
      orgId: string;
      name: string;
    };
    query: {
      ref?: string;
      path?: string;
    };
    body: undefined;
    response: {
      ref: string;
      commitId: string;
      path: string;
      entries: TreeEntry[];
    };
  };
  /** A file of a ref with its content: UTF-8 text, or base64 for anything else */
  getReposBlob: {
    params: {
      orgId: string;
      name: string;
    };
    query: {
      ref?: string;
      path: string;
    };
    body: undefined;
    response: {
      path: string;
      commitId: string;
      size: number;
      encoding?: 'utf-8' | 'base64';
      content?: string;
      tooLarge?: true;
      lfs?: {
        oid: string;
        size: number;
        url: string | null;
      };
    };
  };
  /** A commit with the files it changed against its first parent (hunks in the spec's shape */
  getReposCommitsBySha: {
    params: {
      orgId: string;
      name: string;
      sha: string;
    };
    query: object;
    body: undefined;
    response: {
      commit: Commit;
      files: ChangedFile[];
      truncated: boolean;
    };
  };
  /** How far each named branch (up to 20) is ahead of and behind the default branch */
  getReposBranchesDivergence: {
    params: {
      orgId: string;
      name: string;
    };
    query: object & {
      query: {
        name?: string;
      };
    };
    body: undefined;
    response: {
      base: string;
      divergence: {
        [key: string]: {
          ahead: number;
          behind: number;
          exact: boolean;
        } | null;
      };
    };
  };
  /** The last commit of each entry of a folder (up to 100 entries */
  getReposLastCommits: {
    params: {
      orgId: string;
      name: string;
    };
    query: {
      ref?: string;
      path?: string;
    };
    body: undefined;
    response: {
      commitId: string;
      path: string;
      commits: {
        [key: string]: Commit | null;
      };
      truncated: boolean;
    };
  };
  /** The caller's git credentials in this organization, newest first */
  getGitCredentials: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      credentials: RepoCredential[];
    };
  };
  /** Makes a password for git over HTTPS (any user name): its git scopes as far as the caller holds them, an expiry in days (90 unless given) */
  postGitCredentials: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      name: string;
      scopes: ('git:read' | 'git:write')[];
      expiresInDays?: number;
    };
    response: {
      credential: RepoCredential;
      username: string;
      password: string;
    };
  };
  /** Deletes one of your git credentials: it stops working at once */
  deleteGitCredentialsByKeyId: {
    params: {
      orgId: string;
      keyId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Issues, newest first: `state` (default open), `label`, `author` and `assignee` (a member id or handle) */
  getReposIssues: {
    params: {
      orgId: string;
      name: string;
    };
    query: {
      state?: 'open' | 'closed';
      cursor?: string;
      label?: string;
      author?: string;
      assignee?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      issues: RepoIssue[];
      cursor: string | null;
    };
  };
  /** Opens an issue under the next number of the repository (shared with pull requests) */
  postReposIssues: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: {
      title: string;
      body?: string;
      labels?: string[];
      assignees?: string[];
    };
    response: {
      issue: RepoIssue;
    };
  };
  /** An issue and its comments, oldest first */
  getReposIssuesByNumber: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: object;
    body: undefined;
    response: {
      issue: RepoIssue;
      comments: Comment[];
    };
  };
  /** Changes an issue (its author, or members with git:write): `state` closed sets `closedAt` and `closedBy`, open clears them */
  patchReposIssuesByNumber: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: object;
    body: {
      title?: string;
      body?: string;
      labels?: string[];
      assignees?: string[];
      state?: 'open' | 'closed';
    };
    response: {
      issue: RepoIssue;
    };
  };
  /** Adds a comment to an issue (the issue's `comments` goes up in the same write) */
  postReposIssuesComments: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: object;
    body: {
      body: string;
    };
    response: {
      comment: Comment;
    };
  };
  /** Pull requests, newest first (`state` open, closed or merged */
  getReposPulls: {
    params: {
      orgId: string;
      name: string;
    };
    query: {
      state?: 'open' | 'closed' | 'merged';
      cursor?: string;
      label?: string;
      author?: string;
      assignee?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      pulls: PullRequest[];
      cursor: string | null;
    };
  };
  /** Opens a pull request from `source` into `target` under the next number */
  postReposPulls: {
    params: {
      orgId: string;
      name: string;
    };
    query: object;
    body: {
      title: string;
      description?: string;
      source: string;
      target: string;
      labels?: string[];
      assignees?: string[];
    };
    response: {
      pull: PullRequest;
    };
  };
  /** A pull request in detail (merge base, heads, revision), the strategies that would merge it now, its conflicts and its comments */
  getReposPullsByNumber: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: object;
    body: undefined;
    response: {
      pull: PullRequestDetail;
      mergeOptions: ('fast-forward' | 'squash' | 'three-way')[];
      conflicts: Conflict[];
      comments: Comment[];
    };
  };
  /** Changes the title, description, labels or assignees (its author, or members with git:write) */
  patchReposPullsByNumber: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: object;
    body: {
      title?: string;
      description?: string;
      labels?: string[];
      assignees?: string[];
    };
    response: {
      pull: PullRequest;
    };
  };
  /** Closes a pull request without merging (its author, or members with git:write) */
  postReposPullsClose: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: object;
    body: undefined;
    response: State;
  };
  /** Reopens a closed pull request as a new one under the same number (approvals start over) */
  postReposPullsReopen: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: object;
    body: undefined;
    response: State;
  };
  /** Adds a comment to a pull request (its `comments` goes up in the same write) */
  postReposPullsComments: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: object;
    body: {
      body: string;
    };
    response: {
      comment: Comment;
    };
  };
  /** The commits the source brings (newest first, 250 at most: `truncated` past them) */
  getReposPullsCommits: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: object;
    body: undefined;
    response: {
      commits: Commit[];
      truncated: boolean;
    };
  };
  /** The files the source changes since the merge base, with unified hunks (binary files and files of more than 1,000 changed lines `collapsed` */
  getReposPullsFiles: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: object;
    body: undefined;
    response: {
      files: ChangedFile[];
      total: number;
      truncated: boolean;
      base: string | null;
      head: string;
    };
  };
  /** The review of the current revision: approvals that count (by others than the author, of this revision), what branch protection requires, and the review threads (`outdated` once their line changed) */
  getReposPullsReview: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: object;
    body: undefined;
    response: {
      revisionId: string | null;
      base: string | null;
      head: string | null;
      approvals: {
        id: string;
        name: string;
        email: string | null;
      }[];
      required: number;
      rules: {
        name: string;
        required: number;
        fromTemplate: boolean;
        satisfied: boolean;
      }[];
      approved: boolean;
      overridden: boolean;
      viewerApproved: boolean;
      threads: ReviewThread[];
    };
  };
  /** A review comment: a new thread on `line` of `path` (`side` old or new) of the diff between `base` and `head` (default: the merge base and the source head), or a reply with `inReplyTo` (a thread or comment id) */
  postReposPullsReviewComments: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: object;
    body: {
      body: string;
      inReplyTo?: string;
      path?: string;
      line?: number;
      side?: 'old' | 'new';
      base?: string;
      head?: string;
    };
    response: {
      comment: {
        id: string;
      };
    };
  };
  /** Approves (or, `approve: false`, withdraws) the revision `revisionId` (from the pull request or its review) */
  postReposPullsApproval: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: object;
    body: {
      approve: boolean;
      revisionId?: string;
    };
    response: {
      approved: boolean;
    };
  };
  /** Merges with `strategy` (fast-forward, squash: one commit `<title> (#N)` by the author, three-way: a merge commit) */
  postReposPullsMerge: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: object;
    body: {
      strategy: 'squash' | 'fast-forward' | 'three-way';
      message?: string;
      sourceCommitId?: string;
    };
    response: {
      merged: true;
      mergeCommitId: string | null;
      closedIssues: number[];
    };
  };
  /** Reports a check run on a commit: one per commit and `name` */
  postReposCommitsChecks: {
    params: {
      orgId: string;
      name: string;
      sha: string;
    };
    query: object;
    body: {
      name: string;
      state?: 'queued' | 'in_progress' | 'success' | 'failure' | 'cancelled';
      summary?: string | null;
      detailsUrl?: string | null;
    };
    response: {
      check: CheckRun;
    };
  };
  /** A commit's check runs by name (signed cursor, `limit` 1-100, default 50) and their summary */
  getReposCommitsChecks: {
    params: {
      orgId: string;
      name: string;
      sha: string;
    };
    query: {
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      commitId: string;
      checks: CheckRun[];
      cursor: string | null;
      summary: CheckSummary;
    };
  };
  /** Updates a check run: `state` forward only (queued → in_progress → success, failure or cancelled */
  patchReposCommitsChecksByCheckId: {
    params: {
      orgId: string;
      name: string;
      sha: string;
      checkId: string;
    };
    query: object;
    body: {
      state?: 'queued' | 'in_progress' | 'success' | 'failure' | 'cancelled';
      summary?: string | null;
      detailsUrl?: string | null;
      ifVersion?: number;
    };
    response: {
      check: CheckRun;
    };
  };
  /** The check runs of a pull request's head (the source head while open, the head merged once merged */
  getReposPullsChecks: {
    params: {
      orgId: string;
      name: string;
      number: string;
    };
    query: {
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      head: string | null;
      checks: CheckRun[];
      cursor: string | null;
      summary: CheckSummary;
      required: RequiredCheck[];
      requiredStatus: RequiredCheckStatus[];
    };
  };
  /** The organization's devices, their pending network requests and the latest jobs */
  getAgents: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      devices: AgentDevice[];
      requests: NetworkRequest[];
      jobs: AgentJob[];
    };
  };
  /** Queues a job for a device of the organization: `http.batch` `{ requests: [{ method, url, headers?, body?, timeoutMs? }] }` (1-100), `exec` `{ command: [argv…], cwd?, env?, timeoutMs? }` (also needs agents:write), `browser.batch` `{ pages: [{ url, waitFor?, screenshot?, text? }] }` (1-20) */
  postAgentsJobs: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      type: 'http.batch' | 'exec' | 'browser.batch';
      label?: string;
      input: unknown;
      hosts?: string[];
      callbackUrl?: string;
      ttlSeconds?: number;
    };
    response: {
      jobId: string;
      expiresAt: number;
    };
  };
  /** A job, and a 5-minute link to its results once done */
  getAgentsJobsByJobId: {
    params: {
      orgId: string;
      jobId: string;
    };
    query: object;
    body: undefined;
    response: {
      job: AgentJob;
      resultsUrl: string | null;
    };
  };
  /** Cancels a job: a queued one at once, a running one once its device stops (`canceling`) */
  postAgentsJobsCancel: {
    params: {
      orgId: string;
      jobId: string;
    };
    query: object;
    body: undefined;
    response: {
      status: 'canceled' | 'canceling';
    };
  };
  /** For a queued job a device can't run: files its network requests for the hosts it lacks (the owner approves them) and says what else is missing */
  postAgentsJobsRequestAccess: {
    params: {
      orgId: string;
      jobId: string;
    };
    query: object;
    body: {
      deviceId: string;
    };
    response: {
      requested: string[];
      notified: boolean;
      missing?: {
        capability?: 'http' | 'browser' | 'exec';
        hosts?: string[];
        network?: 'allowlist';
      };
    };
  };
  /** Answers a device login (the user code the agent program shows): approved, the device becomes the caller's in this organization (http only, allowlist, no hosts) */
  postAgentsLogin: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      userCode: string;
      approve?: boolean;
    };
    response: AgentOk;
  };
  /** Changes a device's name, capabilities, network mode or allowed hosts */
  patchAgentsDevicesByDeviceId: {
    params: {
      orgId: string;
      deviceId: string;
    };
    query: object;
    body: {
      networkMode?: 'allowlist' | 'full';
      hosts?: string[];
      name?: string;
      capabilities?: ('http' | 'browser' | 'exec')[];
    };
    response: AgentOk;
  };
  /** Revokes a device and its token at once (its next call is 401) */
  deleteAgentsDevicesByDeviceId: {
    params: {
      orgId: string;
      deviceId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Decides a device's network request: `approve` adds the host to its allowlist */
  postAgentsRequestsByDeviceIdAndHostAndDecision: {
    params: {
      orgId: string;
      deviceId: string;
      host: string;
      decision: string;
    };
    query: object;
    body: undefined;
    response: AgentOk;
  };
  /** Marks the device seen, answers its policy and claims the oldest queued job it may run (its type's capability, hosts within the allowlist), with a results link */
  postAgentPoll: {
    params: object;
    query: object;
    body: {
      version?: string;
      platform?: string;
    };
    response: {
      policy: {
        capabilities: ('http' | 'browser' | 'exec')[];
        networkMode?: 'allowlist' | 'full';
        hosts?: string[];
      };
      job: {
        jobId: string;
        type: 'http.batch' | 'exec' | 'browser.batch';
        label?: string;
        hosts?: string[];
        input: unknown;
        uploadUrl: string;
      } | null;
      nextPollMs: number;
    };
  };
  /** Keeps a running job alive (every 30 s */
  postAgentJobsHeartbeat: {
    params: {
      jobId: string;
    };
    query: object;
    body: {
      progress?: string;
    };
    response: {
      ok: true;
      cancel: boolean;
    };
  };
  /** Ends a job the device ran: `done` or `failed` (while canceling: `canceled`) */
  postAgentJobsComplete: {
    params: {
      jobId: string;
    };
    query: object;
    body: {
      status: 'done' | 'failed';
      error?: string;
    };
    response: {
      ok: true;
    };
  };
  /** A fresh results link (PUT, JSON, 15 minutes, 100 MB at most) for a job still running */
  postAgentJobsUploadUrl: {
    params: {
      jobId: string;
    };
    query: object;
    body: undefined;
    response: {
      uploadUrl: string;
    };
  };
  /** Starts a device login (RFC 8628): the device shows `userCode` for a person to approve (`POST /v1/orgs/:orgId/agents/login`) and asks `login/token` every `interval` seconds */
  postAgentLogin: {
    params: object;
    query: object;
    body: {
      name?: string;
      platform?: string;
      version?: string;
      capabilities?: ('http' | 'browser' | 'exec')[];
    };
    response: {
      deviceCode: string;
      userCode: string;
      verificationUri: string;
      verificationUriComplete: string;
      interval: number;
      expiresIn: number;
    };
  };
  /** The device token of an approved login, once: until then 400 `authorization_pending` (`slow_down` when asked more often than every 5 s), `access_denied` or `expired_token` */
  postAgentLoginToken: {
    params: object;
    query: object;
    body: {
      deviceCode: string;
    };
    response: {
      token: string;
      deviceId: string;
      orgId: string;
    };
  };
  /** Asks for a host the device's allowlist lacks (one pending request per host, refreshed when asked again) */
  postAgentNetworkRequests: {
    params: object;
    query: object;
    body: {
      host: string;
      reason?: string;
    };
    response: {
      ok: true;
    };
  };
  /** The organization's connectors (credentials never shown) */
  getConnectors: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      connectors: {
        connectorId: string;
        orgId: string;
        name: string;
        slug: string;
        url: string;
        transport: 'http' | 'sse';
        authType: 'none' | 'bearer' | 'header' | 'oauth';
        headerName?: string;
        enabled?: boolean;
        status?: 'ok' | 'unknown' | 'error';
        lastError?: string;
        lastCheckedAt?: number;
        accessExpiresAt?: number;
        createdBy: string;
        createdAt?: number;
        updatedAt?: number;
        hasSecret: boolean;
        toolCount: number;
        omittedTools: number;
        oauth?: {
          connected: boolean;
          server: string | null;
          registered: boolean | null;
        };
      }[];
    };
  };
  /** Registers a remote MCP server: `http` (Streamable HTTP) or `sse` (the older HTTP+SSE), reached through the guarded fetch (public https only) */
  postConnectors: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      name: string;
      slug: string;
      url: string;
      authType?: 'none' | 'bearer' | 'header' | 'oauth';
      transport?: 'http' | 'sse';
      headerName?: string;
      secret?: string;
      oauthClientId?: string;
      oauthClientSecret?: string;
    };
    response: {
      connector: {
        connectorId: string;
        orgId: string;
        name: string;
        slug: string;
        url: string;
        transport: 'http' | 'sse';
        authType: 'none' | 'bearer' | 'header' | 'oauth';
        headerName?: string;
        enabled?: boolean;
        status?: 'ok' | 'unknown' | 'error';
        lastError?: string;
        lastCheckedAt?: number;
        accessExpiresAt?: number;
        createdBy: string;
        createdAt?: number;
        updatedAt?: number;
        hasSecret: boolean;
        toolCount: number;
        omittedTools: number;
        oauth?: {
          connected: boolean;
          server: string | null;
          registered: boolean | null;
        };
      };
    };
  };
  /** A connector and its cached tools, as its last good `test` listed them */
  getConnectorsByConnectorId: {
    params: {
      orgId: string;
      connectorId: string;
    };
    query: object;
    body: undefined;
    response: {
      connector: {
        connectorId: string;
        orgId: string;
        name: string;
        slug: string;
        url: string;
        transport: 'http' | 'sse';
        authType: 'none' | 'bearer' | 'header' | 'oauth';
        headerName?: string;
        enabled?: boolean;
        status?: 'ok' | 'unknown' | 'error';
        lastError?: string;
        lastCheckedAt?: number;
        accessExpiresAt?: number;
        createdBy: string;
        createdAt?: number;
        updatedAt?: number;
        hasSecret: boolean;
        toolCount: number;
        omittedTools: number;
        oauth?: {
          connected: boolean;
          server: string | null;
          registered: boolean | null;
        };
      };
      tools: {
        name: string;
        exposedName: string;
        title?: string;
        description?: string;
        inputSchema: {
          [key: string]: unknown;
        };
      }[];
    };
  };
  /** Renames, enables or disables a connector, or replaces its credential (`bearer`, `header`) */
  patchConnectorsByConnectorId: {
    params: {
      orgId: string;
      connectorId: string;
    };
    query: object;
    body: {
      name?: string;
      enabled?: boolean;
      secret?: string;
    };
    response: {
      connector: {
        connectorId: string;
        orgId: string;
        name: string;
        slug: string;
        url: string;
        transport: 'http' | 'sse';
        authType: 'none' | 'bearer' | 'header' | 'oauth';
        headerName?: string;
        enabled?: boolean;
        status?: 'ok' | 'unknown' | 'error';
        lastError?: string;
        lastCheckedAt?: number;
        accessExpiresAt?: number;
        createdBy: string;
        createdAt?: number;
        updatedAt?: number;
        hasSecret: boolean;
        toolCount: number;
        omittedTools: number;
        oauth?: {
          connected: boolean;
          server: string | null;
          registered: boolean | null;
        };
      };
    };
  };
  /** Deletes a connector with its credentials, tokens and cached tools */
  deleteConnectorsByConnectorId: {
    params: {
      orgId: string;
      connectorId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Connects and caches the tool list (up to 200 */
  postConnectorsTest: {
    params: {
      orgId: string;
      connectorId: string;
    };
    query: object;
    body: undefined;
    response: {
      connector: {
        connectorId: string;
        orgId: string;
        name: string;
        slug: string;
        url: string;
        transport: 'http' | 'sse';
        authType: 'none' | 'bearer' | 'header' | 'oauth';
        headerName?: string;
        enabled?: boolean;
        status?: 'ok' | 'unknown' | 'error';
        lastError?: string;
        lastCheckedAt?: number;
        accessExpiresAt?: number;
        createdBy: string;
        createdAt?: number;
        updatedAt?: number;
        hasSecret: boolean;
        toolCount: number;
        omittedTools: number;
        oauth?: {
          connected: boolean;
          server: string | null;
          registered: boolean | null;
        };
      };
    };
  };
  /** Discovers the server's sign-in (MCP authorization), registers a client if it allows and none was given, and stores a one-time state (10 minutes, this person) with a PKCE verifier */
  postConnectorsOauthStart: {
    params: {
      orgId: string;
      connectorId: string;
    };
    query: object;
    body: {
      returnTo?: string;
    };
    response: {
      url: string;
    };
  };
  /** Where the sign-in returns: consumes the state (once */
  postConnectorsOauthCallback: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      state: string;
      code?: string;
      error?: string;
    };
    response: {
      connected: boolean;
      returnTo: string | null;
      connectorId: string;
    };
  };
  /** The project's sign-in clients, oldest first (secrets by id and date, never their values) */
  getProjectsOauthClients: {
    params: {
      orgId: string;
      projectId: string;
    };
    query: object;
    body: undefined;
    response: {
      clients: {
        clientId: string;
        projectId: string;
        name: string;
        type: 'web' | 'spa' | 'native';
        redirectUris: string[];
        allowedOrigins: string[];
        scopes: ('openid' | 'profile' | 'email')[];
        secrets: {
          secretId: string;
          createdAt: number;
          expiresAt?: number;
        }[];
        createdBy: string;
        createdAt: number;
        updatedAt: number;
        version: number;
      }[];
    };
  };
  /** An OAuth client for the project's own users to sign in with the platform's identity provider (code flow with PKCE) */
  postProjectsOauthClients: {
    params: {
      orgId: string;
      projectId: string;
    };
    query: object;
    body: {
      name: string;
      type: 'web' | 'spa' | 'native';
      redirectUris: string[];
      allowedOrigins?: string[];
      scopes?: ('openid' | 'profile' | 'email')[];
    };
    response: {
      client: {
        clientId: string;
        projectId: string;
        name: string;
        type: 'web' | 'spa' | 'native';
        redirectUris: string[];
        allowedOrigins: string[];
        scopes: ('openid' | 'profile' | 'email')[];
        secrets: {
          secretId: string;
          createdAt: number;
          expiresAt?: number;
        }[];
        createdBy: string;
        createdAt: number;
        updatedAt: number;
        version: number;
      };
      clientSecret?: string;
    };
  };
  /** Changes a client (its type stays) */
  patchProjectsOauthClientsByClientId: {
    params: {
      orgId: string;
      projectId: string;
      clientId: string;
    };
    query: object;
    body: {
      name?: string;
      type?: string;
      redirectUris?: string[];
      allowedOrigins?: string[];
      scopes?: ('openid' | 'profile' | 'email')[];
      ifVersion?: number;
    };
    response: {
      client: {
        clientId: string;
        projectId: string;
        name: string;
        type: 'web' | 'spa' | 'native';
        redirectUris: string[];
        allowedOrigins: string[];
        scopes: ('openid' | 'profile' | 'email')[];
        secrets: {
          secretId: string;
          createdAt: number;
          expiresAt?: number;
        }[];
        createdBy: string;
        createdAt: number;
        updatedAt: number;
        version: number;
      };
    };
  };
  /** Deletes a client: its users get no more tokens from it, refresh tokens included */
  deleteProjectsOauthClientsByClientId: {
    params: {
      orgId: string;
      projectId: string;
      clientId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Rotates a web client's secret: a new one (in the answer, once) beside the current, which keeps working for 7 days */
  postProjectsOauthClientsSecret: {
    params: {
      orgId: string;
      projectId: string;
      clientId: string;
    };
    query: object;
    body: {
      revokePrevious?: boolean;
    };
    response:
      | {
          client: {
            clientId: string;
            projectId: string;
            name: string;
            type: 'web' | 'spa' | 'native';
            redirectUris: string[];
            allowedOrigins: string[];
            scopes: ('openid' | 'profile' | 'email')[];
            secrets: {
              secretId: string;
              createdAt: number;
              expiresAt?: number;
            }[];
            createdBy: string;
            createdAt: number;
            updatedAt: number;
            version: number;
          };
        }
      | {
          client: {
            clientId: string;
            projectId: string;
            name: string;
            type: 'web' | 'spa' | 'native';
            redirectUris: string[];
            allowedOrigins: string[];
            scopes: ('openid' | 'profile' | 'email')[];
            secrets: {
              secretId: string;
              createdAt: number;
              expiresAt?: number;
            }[];
            createdBy: string;
            createdAt: number;
            updatedAt: number;
            version: number;
          };
          clientSecret: string;
        };
  };
  /** The organization's webhook endpoints (their secrets never) */
  getWebhooks: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      endpoints: {
        endpointId: string;
        orgId: string;
        url: string;
        events: (
          | 'issue.sla_breached'
          | 'deployment.ready'
          | 'deployment.failed'
          | 'pull_request.preview_ready'
          | 'pull_request.preview_failed'
          | 'account.new_sign_in'
          | 'domain.verified'
          | 'domain.failed'
          | 'issue.assigned'
          | 'issue.mentioned'
          | 'calendar.invite_unanswered'
          | 'calendar.meeting_soon'
          | 'mail.vip'
          | 'agent.job_done'
          | 'agent.job_failed'
          | 'ops.alarm'
          | 'check.completed'
        )[];
        description?: string;
        enabled: boolean;
        createdBy: string;
        createdAt: number;
        updatedAt: number;
        version: number;
      }[];
    };
  };
  /** Registers an endpoint for event kinds (those notifications raise) */
  postWebhooks: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      url: string;
      events: (
        | 'issue.sla_breached'
        | 'deployment.ready'
        | 'deployment.failed'
        | 'pull_request.preview_ready'
        | 'pull_request.preview_failed'
        | 'account.new_sign_in'
        | 'domain.verified'
        | 'domain.failed'
        | 'issue.assigned'
        | 'issue.mentioned'
        | 'calendar.invite_unanswered'
        | 'calendar.meeting_soon'
        | 'mail.vip'
        | 'agent.job_done'
        | 'agent.job_failed'
        | 'ops.alarm'
        | 'check.completed'
      )[];
      description?: string;
      enabled?: boolean;
    };
    response: {
      endpoint: {
        endpointId: string;
        orgId: string;
        url: string;
        events: (
          | 'issue.sla_breached'
          | 'deployment.ready'
          | 'deployment.failed'
          | 'pull_request.preview_ready'
          | 'pull_request.preview_failed'
          | 'account.new_sign_in'
          | 'domain.verified'
          | 'domain.failed'
          | 'issue.assigned'
          | 'issue.mentioned'
          | 'calendar.invite_unanswered'
          | 'calendar.meeting_soon'
          | 'mail.vip'
          | 'agent.job_done'
          | 'agent.job_failed'
          | 'ops.alarm'
          | 'check.completed'
        )[];
        description?: string;
        enabled: boolean;
        createdBy: string;
        createdAt: number;
        updatedAt: number;
        version: number;
      };
      secret: string;
    };
  };
  /** An endpoint */
  getWebhooksByEndpointId: {
    params: {
      orgId: string;
      endpointId: string;
    };
    query: object;
    body: undefined;
    response: {
      endpoint: {
        endpointId: string;
        orgId: string;
        url: string;
        events: (
          | 'issue.sla_breached'
          | 'deployment.ready'
          | 'deployment.failed'
          | 'pull_request.preview_ready'
          | 'pull_request.preview_failed'
          | 'account.new_sign_in'
          | 'domain.verified'
          | 'domain.failed'
          | 'issue.assigned'
          | 'issue.mentioned'
          | 'calendar.invite_unanswered'
          | 'calendar.meeting_soon'
          | 'mail.vip'
          | 'agent.job_done'
          | 'agent.job_failed'
          | 'ops.alarm'
          | 'check.completed'
        )[];
        description?: string;
        enabled: boolean;
        createdBy: string;
        createdAt: number;
        updatedAt: number;
        version: number;
      };
    };
  };
  /** Changes an endpoint: `url`, `events`, `description`, `enabled` */
  patchWebhooksByEndpointId: {
    params: {
      orgId: string;
      endpointId: string;
    };
    query: object;
    body: {
      url?: string;
      events?: (
        | 'issue.sla_breached'
        | 'deployment.ready'
        | 'deployment.failed'
        | 'pull_request.preview_ready'
        | 'pull_request.preview_failed'
        | 'account.new_sign_in'
        | 'domain.verified'
        | 'domain.failed'
        | 'issue.assigned'
        | 'issue.mentioned'
        | 'calendar.invite_unanswered'
        | 'calendar.meeting_soon'
        | 'mail.vip'
        | 'agent.job_done'
        | 'agent.job_failed'
        | 'ops.alarm'
        | 'check.completed'
      )[];
      description?: string;
      enabled?: boolean;
      ifVersion?: number;
    };
    response: {
      endpoint: {
        endpointId: string;
        orgId: string;
        url: string;
        events: (
          | 'issue.sla_breached'
          | 'deployment.ready'
          | 'deployment.failed'
          | 'pull_request.preview_ready'
          | 'pull_request.preview_failed'
          | 'account.new_sign_in'
          | 'domain.verified'
          | 'domain.failed'
          | 'issue.assigned'
          | 'issue.mentioned'
          | 'calendar.invite_unanswered'
          | 'calendar.meeting_soon'
          | 'mail.vip'
          | 'agent.job_done'
          | 'agent.job_failed'
          | 'ops.alarm'
          | 'check.completed'
        )[];
        description?: string;
        enabled: boolean;
        createdBy: string;
        createdAt: number;
        updatedAt: number;
        version: number;
      };
    };
  };
  /** Removes an endpoint */
  deleteWebhooksByEndpointId: {
    params: {
      orgId: string;
      endpointId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** A new signing secret (answered once) */
  postWebhooksSecret: {
    params: {
      orgId: string;
      endpointId: string;
    };
    query: object;
    body: undefined;
    response: {
      endpoint: {
        endpointId: string;
        orgId: string;
        url: string;
        events: (
          | 'issue.sla_breached'
          | 'deployment.ready'
          | 'deployment.failed'
          | 'pull_request.preview_ready'
          | 'pull_request.preview_failed'
          | 'account.new_sign_in'
          | 'domain.verified'
          | 'domain.failed'
          | 'issue.assigned'
          | 'issue.mentioned'
          | 'calendar.invite_unanswered'
          | 'calendar.meeting_soon'
          | 'mail.vip'
          | 'agent.job_done'
          | 'agent.job_failed'
          | 'ops.alarm'
          | 'check.completed'
        )[];
        description?: string;
        enabled: boolean;
        createdBy: string;
        createdAt: number;
        updatedAt: number;
        version: number;
      };
      secret: string;
    };
  };
  /** The endpoint's deliveries, newest first, with each try's status or error and time: pages of `limit` (1-100) */
  getWebhooksDeliveries: {
    params: {
      orgId: string;
      endpointId: string;
    };
    query: {
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      deliveries: {
        deliveryId: string;
        endpointId: string;
        eventId: string;
        kind: string;
        status: 'pending' | 'succeeded' | 'failed';
        attempts: {
          at: number;
          status?: number;
          error?: string;
          durationMs: number;
        }[];
        createdAt: number;
        nextAttemptAt?: number;
        payload?: unknown;
      }[];
      cursor: string | null;
    };
  };
  /** A delivery with the payload it sends and its tries */
  getWebhooksDeliveriesByDeliveryId: {
    params: {
      orgId: string;
      endpointId: string;
      deliveryId: string;
    };
    query: object;
    body: undefined;
    response: {
      delivery: {
        deliveryId: string;
        endpointId: string;
        eventId: string;
        kind: string;
        status: 'pending' | 'succeeded' | 'failed';
        attempts: {
          at: number;
          status?: number;
          error?: string;
          durationMs: number;
        }[];
        createdAt: number;
        nextAttemptAt?: number;
        payload?: unknown;
      };
    };
  };
  /** Sends a delivery again, as a new delivery of the same payload (its own `webhook-id` and tries) */
  postWebhooksDeliveriesRedeliver: {
    params: {
      orgId: string;
      endpointId: string;
      deliveryId: string;
    };
    query: object;
    body: undefined;
    response: {
      delivery: {
        deliveryId: string;
        endpointId: string;
        eventId: string;
        kind: string;
        status: 'pending' | 'succeeded' | 'failed';
        attempts: {
          at: number;
          status?: number;
          error?: string;
          durationMs: number;
        }[];
        createdAt: number;
        nextAttemptAt?: number;
        payload?: unknown;
      };
    };
  };
  /** The caller's notices, newest first, across organizations */
  getMeNotifications: {
    params: object;
    query: {
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      notices: Notice[];
      cursor: string | null;
    };
  };
  /** Marks notices read */
  postMeNotificationsRead: {
    params: object;
    query: object;
    body: {
      noticeIds: string[];
    };
    response: {
      ok: true;
    };
  };
  /** Acknowledges a notice by its id (`nte_…`): its later escalation steps are not sent */
  postMeNotificationsAck: {
    params: {
      noticeId: string;
    };
    query: object;
    body: undefined;
    response: {
      acked: boolean;
    };
  };
  /** The caller's phone number for texts and calls, and quiet hours (none by default) */
  getMeNotificationsSettings: {
    params: object;
    query: object;
    body: undefined;
    response: {
      settings: NotificationSettings;
    };
  };
  /** Replaces the settings: `phone` (E.164, or null: texts and calls go by email), `quietHours` ({ start, end, timeZone }, or null): during them only in-app notices arrive, the rest wait for their end */
  putMeNotificationsSettings: {
    params: object;
    query: object;
    body: {
      phone: string | null;
      quietHours: {
        start: string;
        end: string;
        timeZone: string;
      } | null;
    };
    response: {
      settings: NotificationSettings;
    };
  };
  /** The protocol templates a protocol can be made from (`{ template }`) */
  getNotifyProtocolsTemplates: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      templates: {
        id: string;
        name: string;
        description: string;
        rules: {
          events: (
            | 'issue.sla_breached'
            | 'deployment.ready'
            | 'deployment.failed'
            | 'pull_request.preview_ready'
            | 'pull_request.preview_failed'
            | 'account.new_sign_in'
            | 'domain.verified'
            | 'domain.failed'
            | 'issue.assigned'
            | 'issue.mentioned'
            | 'calendar.invite_unanswered'
            | 'calendar.meeting_soon'
            | 'mail.vip'
            | 'agent.job_done'
            | 'agent.job_failed'
            | 'ops.alarm'
            | 'check.completed'
          )[];
          match?: {
            [key: string]: string[];
          };
          steps: {
            afterMinutes: number;
            channels: ('inapp' | 'email' | 'sms' | 'voice')[];
          }[];
          beforeEvent?: boolean;
          roles?: ('owner' | 'admin' | 'developer' | 'viewer')[];
          userIds?: string[];
          overrideQuietHours?: boolean;
        }[];
      }[];
    };
  };
  /** The organization's notification protocols, oldest first */
  getNotifyProtocols: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      protocols: NotificationProtocol[];
    };
  };
  /** Creates a protocol: `{ template }` copies a template, else `{ name, description?, enabled?, rules }` */
  postNotifyProtocols: {
    params: {
      orgId: string;
    };
    query: object;
    body:
      | {
          template: string;
        }
      | {
          name: string;
          description?: string;
          enabled?: boolean;
          rules: {
            events: (
              | 'issue.sla_breached'
              | 'deployment.ready'
              | 'deployment.failed'
              | 'pull_request.preview_ready'
              | 'pull_request.preview_failed'
              | 'account.new_sign_in'
              | 'domain.verified'
              | 'domain.failed'
              | 'issue.assigned'
              | 'issue.mentioned'
              | 'calendar.invite_unanswered'
              | 'calendar.meeting_soon'
              | 'mail.vip'
              | 'agent.job_done'
              | 'agent.job_failed'
              | 'ops.alarm'
              | 'check.completed'
            )[];
            match?: {
              [key: string]: string[];
            };
            steps: {
              afterMinutes: number;
              channels: ('inapp' | 'email' | 'sms' | 'voice')[];
            }[];
            beforeEvent?: boolean;
            roles?: ('owner' | 'admin' | 'developer' | 'viewer')[];
            userIds?: string[];
            overrideQuietHours?: boolean;
          }[];
        };
    response: {
      protocol: NotificationProtocol;
    };
  };
  /** A protocol with its rules and attachments */
  getNotifyProtocolsByProtocolId: {
    params: {
      orgId: string;
      protocolId: string;
    };
    query: object;
    body: undefined;
    response: {
      protocol: NotificationProtocol;
    };
  };
  /** Replaces a protocol (attachments stay) */
  putNotifyProtocolsByProtocolId: {
    params: {
      orgId: string;
      protocolId: string;
    };
    query: object;
    body: {
      name: string;
      description?: string;
      enabled?: boolean;
      rules: {
        events: (
          | 'issue.sla_breached'
          | 'deployment.ready'
          | 'deployment.failed'
          | 'pull_request.preview_ready'
          | 'pull_request.preview_failed'
          | 'account.new_sign_in'
          | 'domain.verified'
          | 'domain.failed'
          | 'issue.assigned'
          | 'issue.mentioned'
          | 'calendar.invite_unanswered'
          | 'calendar.meeting_soon'
          | 'mail.vip'
          | 'agent.job_done'
          | 'agent.job_failed'
          | 'ops.alarm'
          | 'check.completed'
        )[];
        match?: {
          [key: string]: string[];
        };
        steps: {
          afterMinutes: number;
          channels: ('inapp' | 'email' | 'sms' | 'voice')[];
        }[];
        beforeEvent?: boolean;
        roles?: ('owner' | 'admin' | 'developer' | 'viewer')[];
        userIds?: string[];
        overrideQuietHours?: boolean;
      }[];
      ifVersion?: number;
    };
    response: {
      protocol: NotificationProtocol;
    };
  };
  /** Deletes a protocol and its attachments */
  deleteNotifyProtocolsByProtocolId: {
    params: {
      orgId: string;
      protocolId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Attaches a resource: its events follow this protocol (and not the organization-wide ones) */
  postNotifyProtocolsAttachments: {
    params: {
      orgId: string;
      protocolId: string;
    };
    query: object;
    body: {
      type: 'org' | 'project' | 'agent' | 'mailbox' | 'calendar' | 'space';
      id: string;
      label?: string;
    };
    response: {
      ok: true;
    };
  };
  /** Detaches a resource */
  deleteNotifyProtocolsAttachmentsByResourceTypeAndTargetId: {
    params: {
      orgId: string;
      protocolId: string;
      resourceType: string;
      targetId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** The organization's custom domains by hostname, of one project with `projectId` */
  getDomains: {
    params: {
      orgId: string;
    };
    query: {
      projectId?: string;
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      domains: {
        hostname: string;
        orgId: string;
        projectId: string;
        status: 'error' | 'active' | 'pending' | 'verifying';
        message?: string;
        createdAt?: number;
        updatedAt?: number;
        tenantId?: string;
        certificateArn?: string;
        records: string;
        zone: string;
        dnsProvider?: string;
        checkedAt?: number;
        redirectTo?: string;
        version: number;
      }[];
      cursor: string | null;
    };
  };
  /** Adds a custom domain to a project: `pending`, with the DNS `records` to create (routing CNAME, or ALIAS at an apex, and the TXT ownership token), its `zone`, and `dnsProvider` when the connected provider holds it */
  postDomains: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      hostname: string;
      projectId: string;
      redirectTo?: string;
    };
    response: {
      domain: {
        hostname: string;
        orgId: string;
        projectId: string;
        status: 'error' | 'active' | 'pending' | 'verifying';
        message?: string;
        createdAt?: number;
        updatedAt?: number;
        tenantId?: string;
        certificateArn?: string;
        records: string;
        zone: string;
        dnsProvider?: string;
        checkedAt?: number;
        redirectTo?: string;
        version: number;
      };
    };
  };
  /** Checks DNS now: with the TXT and routing records found the domain becomes `active` */
  postDomainsVerify: {
    params: {
      orgId: string;
      hostname: string;
    };
    query: object;
    body: undefined;
    response: {
      domain: {
        hostname: string;
        orgId: string;
        projectId: string;
        status: 'error' | 'active' | 'pending' | 'verifying';
        message?: string;
        createdAt?: number;
        updatedAt?: number;
        tenantId?: string;
        certificateArn?: string;
        records: string;
        zone: string;
        dnsProvider?: string;
        checkedAt?: number;
        redirectTo?: string;
        version: number;
      };
    };
  };
  /** Writes the domain's records through the organization's connected DNS provider */
  postDomainsDnsProvider: {
    params: {
      orgId: string;
      hostname: string;
    };
    query: object;
    body: undefined;
    response: {
      domain: {
        hostname: string;
        orgId: string;
        projectId: string;
        status: 'error' | 'active' | 'pending' | 'verifying';
        message?: string;
        createdAt?: number;
        updatedAt?: number;
        tenantId?: string;
        certificateArn?: string;
        records: string;
        zone: string;
        dnsProvider?: string;
        checkedAt?: number;
        redirectTo?: string;
        version: number;
      };
    };
  };
  /** Moves the domain to another project of the organization, or sets `redirectTo` (a 308 to another domain of the same project */
  patchDomainsByHostname: {
    params: {
      orgId: string;
      hostname: string;
    };
    query: object;
    body: {
      projectId?: string;
      redirectTo?: string | null;
      ifVersion?: number;
    };
    response: {
      domain: {
        hostname: string;
        orgId: string;
        projectId: string;
        status: 'error' | 'active' | 'pending' | 'verifying';
        message?: string;
        createdAt?: number;
        updatedAt?: number;
        tenantId?: string;
        certificateArn?: string;
        records: string;
        zone: string;
        dnsProvider?: string;
        checkedAt?: number;
        redirectTo?: string;
        version: number;
      };
    };
  };
  /** Removes the domain: its routing, the records the platform wrote for it, and its reservation */
  deleteDomainsByHostname: {
    params: {
      orgId: string;
      hostname: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** The organization's DNS provider (owners and admins): `{ provider: null | { kind, connected, zones, connectedBy } }` */
  getIntegrationsDnsProvider: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      provider: {
        kind: 'route53' | 'cloudflare' | 'local';
        connected: boolean;
        zones: string[];
        connectedBy: string;
      } | null;
    };
  };
  /** Connects a DNS provider: `route53` with `{ roleArn, externalId }` (a role of your account the platform assumes), `cloudflare` with `{ apiToken }`, `local` on `npm start` */
  putIntegrationsDnsProvider: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      kind: 'route53' | 'cloudflare' | 'local';
      credentials:
        | {
            roleArn: string;
            externalId: string;
          }
        | {
            apiToken: string;
          }
        | {
            [key: string]: unknown;
          };
    };
    response: {
      provider: {
        kind: 'route53' | 'cloudflare' | 'local';
        connected: boolean;
        zones: string[];
        connectedBy: string;
      } | null;
    };
  };
  /** Disconnects the DNS provider (records it wrote stay) */
  deleteIntegrationsDnsProvider: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Starts a provider's OAuth sign-in: `{ url }` to open */
  postIntegrationsDnsProviderAuthorize: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      kind: 'route53' | 'cloudflare' | 'local';
    };
    response: {
      url: string;
    };
  };
  /** Finishes the OAuth sign-in with the provider's `code` and `state`: the provider is connected */
  postIntegrationsDnsProviderOauth: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      code: string;
      state: string;
    };
    response: {
      provider: {
        kind: 'route53' | 'cloudflare' | 'local';
        connected: boolean;
        zones: string[];
        connectedBy: string;
      } | null;
    };
  };
  /** One level of the tree, in order: the top-level pages, or the children of `parentId` */
  getPages: {
    params: {
      orgId: string;
    };
    query: {
      parentId?: string;
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      pages: {
        pageId: string;
        orgId: string;
        parentId: string | null;
        title: string;
        icon: string | null;
        hasChildren: boolean;
        version: number;
        contentVersion: number;
        createdAt: number;
        createdBy: string;
        updatedAt: number;
        updatedBy: string;
      }[];
      cursor: string | null;
    };
  };
  /** Creates a page: at the top level or under `parentId`, last among its siblings or right `before` or `after` one of them */
  postPages: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      title: string;
      parentId?: string | null;
      icon?: string | null;
      content?: string;
      before?: string;
      after?: string;
    };
    response: {
      page: {
        pageId: string;
        orgId: string;
        parentId: string | null;
        title: string;
        icon: string | null;
        hasChildren: boolean;
        version: number;
        contentVersion: number;
        createdAt: number;
        createdBy: string;
        updatedAt: number;
        updatedBy: string;
        contentLength: number;
      };
    };
  };
  /** Pages whose title or text hold every word of `q` (the last word also as the start of a longer one), best first (BM25, titles weigh twice), each with a snippet and the places of the matched words in it */
  getPagesSearch: {
    params: {
      orgId: string;
    };
    query: {
      q: string;
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      results: {
        page: {
          pageId: string;
          orgId: string;
          parentId: string | null;
          title: string;
          icon: string | null;
          hasChildren: boolean;
          version: number;
          contentVersion: number;
          createdAt: number;
          createdBy: string;
          updatedAt: number;
          updatedBy: string;
        };
        score: number;
        snippet: string;
        highlights: [number, number][];
      }[];
      cursor: string | null;
    };
  };
  /** A page with its Markdown content, its breadcrumbs (ancestors, top level first), its first 100 children (`childrenCursor` continues them on GET /pages) and whether it is one of the caller’s favorites */
  getPagesByPageId: {
    params: {
      orgId: string;
      pageId: string;
    };
    query: object;
    body: undefined;
    response: {
      page: {
        pageId: string;
        orgId: string;
        parentId: string | null;
        title: string;
        icon: string | null;
        hasChildren: boolean;
        version: number;
        contentVersion: number;
        createdAt: number;
        createdBy: string;
        updatedAt: number;
        updatedBy: string;
        contentLength: number;
      };
      content: string;
      breadcrumbs: {
        pageId: string;
        title: string;
        icon: string | null;
      }[];
      children: {
        pageId: string;
        orgId: string;
        parentId: string | null;
        title: string;
        icon: string | null;
        hasChildren: boolean;
        version: number;
        contentVersion: number;
        createdAt: number;
        createdBy: string;
        updatedAt: number;
        updatedBy: string;
      }[];
      childrenCursor: string | null;
      favorite: boolean;
    };
  };
  /** Renames a page, changes its icon (null removes it) or moves it: under another `parentId` (null: the top level */
  patchPagesByPageId: {
    params: {
      orgId: string;
      pageId: string;
    };
    query: object;
    body: {
      title?: string;
      icon?: string | null;
      parentId?: string | null;
      before?: string;
      after?: string;
      ifVersion?: number;
    };
    response: {
      page: {
        pageId: string;
        orgId: string;
        parentId: string | null;
        title: string;
        icon: string | null;
        hasChildren: boolean;
        version: number;
        contentVersion: number;
        createdAt: number;
        createdBy: string;
        updatedAt: number;
        updatedBy: string;
        contentLength: number;
      };
    };
  };
  /** Deletes a page and every page under it: all of them answer 404 at once */
  deletePagesByPageId: {
    params: {
      orgId: string;
      pageId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Saves the Markdown content of a page (up to 1,000,000 characters) */
  putPagesContent: {
    params: {
      orgId: string;
      pageId: string;
    };
    query: object;
    body: {
      content: string;
      baseVersion?: number;
    };
    response: {
      page: {
        pageId: string;
        orgId: string;
        parentId: string | null;
        title: string;
        icon: string | null;
        hasChildren: boolean;
        version: number;
        contentVersion: number;
        createdAt: number;
        createdBy: string;
        updatedAt: number;
        updatedBy: string;
        contentLength: number;
      };
    };
  };
  /** The caller's favorite pages, newest first */
  getFavorites: {
    params: {
      orgId: string;
    };
    query: {
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      favorites: {
        page: {
          pageId: string;
          orgId: string;
          parentId: string | null;
          title: string;
          icon: string | null;
          hasChildren: boolean;
          version: number;
          contentVersion: number;
          createdAt: number;
          createdBy: string;
          updatedAt: number;
          updatedBy: string;
        };
        favoritedAt: number;
      }[];
      cursor: string | null;
    };
  };
  /** Makes a page one of the caller’s favorites (again: no change) */
  putFavoritesByPageId: {
    params: {
      orgId: string;
      pageId: string;
    };
    query: object;
    body: undefined;
    response: {
      favorite: {
        page: {
          pageId: string;
          orgId: string;
          parentId: string | null;
          title: string;
          icon: string | null;
          hasChildren: boolean;
          version: number;
          contentVersion: number;
          createdAt: number;
          createdBy: string;
          updatedAt: number;
          updatedBy: string;
        };
        favoritedAt: number;
      };
    };
  };
  /** Removes a page from the caller’s favorites (not one: no change) */
  deleteFavoritesByPageId: {
    params: {
      orgId: string;
      pageId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** The saved versions of a page, newest first: number `n` (the `contentVersion` the content had), the title then, who saved it and when, its size in characters and, for a restore, the version restored */
  getPagesVersions: {
    params: {
      orgId: string;
      pageId: string;
    };
    query: {
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      versions: PageVersion[];
      cursor: string | null;
      contentVersion: number;
    };
  };
  /** One saved version of a page with its Markdown content as it was saved */
  getPagesVersionsByN: {
    params: {
      orgId: string;
      pageId: string;
      n: number;
    };
    query: object;
    body: undefined;
    response: {
      version: PageVersion;
      content: string;
    };
  };
  /** Restores version `n`: a new version whose content is version n's, and the page's content now that (its title stays) */
  postPagesVersionsRestore: {
    params: {
      orgId: string;
      pageId: string;
      n: number;
    };
    query: object;
    body: {
      baseVersion?: number;
    };
    response: {
      page: {
        pageId: string;
        orgId: string;
        parentId: string | null;
        title: string;
        icon: string | null;
        hasChildren: boolean;
        version: number;
        contentVersion: number;
        createdAt: number;
        createdBy: string;
        updatedAt: number;
        updatedBy: string;
        contentLength: number;
      };
      version: PageVersion;
    };
  };
  /** Who changed what: one entry per write (POST, PUT, PATCH, DELETE) of a signed-in caller or key, refused ones too, newest first, kept 365 days: `at`, `actor` {kind, id, email}, `action` (e.g */
  getAudit: {
    params: {
      orgId: string;
    };
    query: {
      actor?: string;
      action?: string;
      target?: string;
      from?: string;
      to?: string;
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      entries: {
        orgId: string | null;
        at: string;
        actor: {
          kind: 'user' | 'api_key' | 'agent_key' | 'device';
          id: string;
          email: string | null;
        };
        action: string;
        route: string;
        target: {
          [key: string]: string;
        };
        status: number;
        requestId: string;
        ip: string | null;
        userAgent: string | null;
        fields: string[];
      }[];
      cursor: string | null;
    };
  };
  /** The organization’s API traffic, or one project’s (`projectId`): a point per `interval` (`hour`, the default, or `day`) from `from` to `to` (at most 90 days */
  getAnalytics: {
    params: {
      orgId: string;
    };
    query: {
      from?: string;
      to?: string;
      interval?: 'hour' | 'day';
      projectId?: string;
    };
    body: undefined;
    response: {
      from: string;
      to: string;
      interval: 'hour' | 'day';
      projectId: string | null;
      series: {
        at: string;
        requests: number;
        clientErrors: number;
        serverErrors: number;
        durationMs: number;
        avgDurationMs: number;
        deploymentsCreated: number;
        issuesCreated: number;
        mailSent: number;
        mailReceived: number;
        edgeRequests: number;
        buildsSucceeded: number;
        buildsFailed: number;
        buildSeconds: number;
      }[];
      totals: {
        requests: number;
        clientErrors: number;
        serverErrors: number;
        durationMs: number;
        avgDurationMs: number;
        deploymentsCreated: number;
        issuesCreated: number;
        mailSent: number;
        mailReceived: number;
        edgeRequests: number;
        buildsSucceeded: number;
        buildsFailed: number;
        buildSeconds: number;
      };
      topRoutes: {
        route: string;
        requests: number;
        clientErrors: number;
        serverErrors: number;
      }[];
    };
  };
  /** The organization's mail domains: status (pending, verified, failed) and the records to publish */
  getMailDomains: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      domains: MailDomain[];
    };
  };
  /** Adds a domain for mail: the records to publish (ownership TXT, DKIM, SPF, DMARC, MX) */
  postMailDomains: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      domain: string;
    };
    response: {
      domain: MailDomain;
    };
  };
  /** Checks the domain's ownership record now */
  postMailDomainsVerify: {
    params: {
      orgId: string;
      domain: string;
    };
    query: object;
    body: undefined;
    response: {
      domain: MailDomain;
    };
  };
  /** Receiving on or off */
  patchMailDomainsByDomain: {
    params: {
      orgId: string;
      domain: string;
    };
    query: object;
    body: {
      receiving?: boolean;
      catchAll?: string | null;
      ifVersion?: number;
    };
    response: {
      domain: MailDomain;
    };
  };
  /** Removes the domain */
  deleteMailDomainsByDomain: {
    params: {
      orgId: string;
      domain: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** The organization's members, each with the mailboxes they belong to */
  getMailMembers: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      members: {
        userId: string;
        email: string | null;
        name: string | null;
        role: string;
        mailboxes: {
          mailboxId: string;
          address: string;
        }[];
      }[];
    };
  };
  /** Every mailbox of the organization, with its members and aliases */
  getMailAdminMailboxes: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      mailboxes: Mailbox[];
    };
  };
  /** Creates a mailbox: an address on one of the organization's domains, unique with aliases platform-wide */
  postMailAdminMailboxes: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      address: string;
      name: string;
      members?: string[];
      kind?: 'personal' | 'shared';
    };
    response: {
      mailbox: Mailbox;
    };
  };
  /** Renames a mailbox or replaces its members (`ifVersion`: 409 when it changed) */
  patchMailAdminMailboxesByMailboxId: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: {
      name?: string;
      members?: string[];
      ifVersion?: number;
    };
    response: {
      mailbox: Mailbox;
    };
  };
  /** Deletes a mailbox: its addresses, messages and attachments, in steps safe to repeat */
  deleteMailAdminMailboxesByMailboxId: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Adds an alias: another address of the organization's domains reaching the mailbox */
  postMailAdminMailboxesAliases: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: {
      address: string;
    };
    response: {
      mailbox: Mailbox;
    };
  };
  /** Removes an alias */
  deleteMailAdminAliasesByAddress: {
    params: {
      orgId: string;
      address: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Per mailbox: bytes and messages held, sent and received this month, sent today against the daily quota */
  getMailUsage: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      mailboxes: {
        mailboxId: string;
        address: string;
        bytes: number;
        messages: number;
        sentThisMonth: number;
        receivedThisMonth: number;
        bouncesThisMonth: number;
        complaintsThisMonth: number;
        sentToday: number;
        dailyQuota: number;
      }[];
    };
  };
  /** The caller's mailboxes, each with its unread INBOX threads */
  getMailMailboxes: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: {
      mailboxes: {
        mailboxId: string;
        address: string;
        name: string;
        kind: 'personal' | 'shared';
        members: string[];
        aliases: string[];
        createdAt: number;
        updatedAt: number;
        version: number;
        settings: MailSettings;
        unread: number;
      }[];
    };
  };
  /** Sending limits: message size (25 MB), recipients per message (100), the daily quota, sent today and when the count resets (UTC midnight) */
  getMailMailboxesLimits: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: undefined;
    response: {
      limits: {
        maxMessageBytes: number;
        maxRecipients: number;
        dailyQuota: number;
        sentToday: number;
        remainingToday: number;
        resetsAt: number;
      };
    };
  };
  /** The mailbox's display name, signature, vacation reply and VIP senders (whose mail raises mail.vip) */
  patchMailMailboxesSettings: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: {
      displayName?: string | null;
      signature?: string | null;
      vacation?: {
        enabled: boolean;
        subject: string;
        text: string;
        startsAt?: number | null;
        endsAt?: number | null;
      } | null;
      vipSenders?: string[];
      ifVersion?: number;
    };
    response: {
      settings: MailSettings;
      version: number;
    };
  };
  /** The mailbox's labels: system ones (INBOX, SENT, DRAFTS, SPAM, TRASH, STARRED) then the user's, each with its threads and unread threads */
  getMailMailboxesLabels: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: undefined;
    response: {
      labels: MailLabel[];
    };
  };
  /** Creates a user label, unique case-insensitively */
  postMailMailboxesLabels: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: {
      name: string;
    };
    response: {
      label: MailLabel;
    };
  };
  /** Deletes a user label: taken off every thread, the mail kept */
  deleteMailMailboxesLabelsByLabelId: {
    params: {
      orgId: string;
      mailboxId: string;
      labelId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Threads of a label (default INBOX), newest first */
  getMailMailboxesThreads: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: {
      label?: string;
      q?: string;
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      threads: MailThreadSummary[];
      cursor: string | null;
    };
  };
  /** One action on 1-500 threads (read, unread, star, unstar, archive, trash, untrash, spam, notSpam, addLabels, removeLabels */
  postMailMailboxesThreadsActions: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: {
      threadIds: string[];
      action:
        | 'read'
        | 'unread'
        | 'star'
        | 'unstar'
        | 'archive'
        | 'trash'
        | 'untrash'
        | 'spam'
        | 'notSpam'
        | 'addLabels'
        | 'removeLabels'
        | 'delete';
      labelIds?: string[];
    };
    response: {
      results: {
        threadId: string;
        ok: boolean;
        error?: string;
      }[];
    };
  };
  /** A thread and its messages (headers, snippet, attachment list), oldest first */
  getMailMailboxesThreadsByThreadId: {
    params: {
      orgId: string;
      mailboxId: string;
      threadId: string;
    };
    query: object;
    body: undefined;
    response: {
      thread: MailThreadSummary;
      messages: Message[];
    };
  };
  /** A message's text and cleaned HTML (no scripts, handlers or forms */
  getMailMailboxesThreadsMessagesBody: {
    params: {
      orgId: string;
      mailboxId: string;
      threadId: string;
      messageId: string;
    };
    query: {
      images?: '0' | '1';
    };
    body: undefined;
    response: {
      text: string;
      html: string | null;
      remoteImagesBlocked: number;
      truncated: boolean;
    };
  };
  /** A presigned GET link (5 minutes) to one attachment, never its bytes */
  getMailMailboxesMessagesAttachmentsByIndex: {
    params: {
      orgId: string;
      mailboxId: string;
      messageId: string;
      index: number;
    };
    query: object;
    body: undefined;
    response: {
      url: string;
      filename: string;
      contentType: string;
      size: number;
      expiresAt: number;
    };
  };
  /** A presigned GET link (5 minutes) to the message as received or sent (RFC 5322, `.eml`) */
  getMailMailboxesMessagesRaw: {
    params: {
      orgId: string;
      mailboxId: string;
      messageId: string;
    };
    query: object;
    body: undefined;
    response: {
      url: string;
      size: number;
      expiresAt: number;
    };
  };
  /** Sends a message (a draft's fields, or `draftId`) from the mailbox's address or an alias: built by MailComposer, stored raw, filed in SENT, handed to the mail system */
  postMailMailboxesSend: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: {
      to?: string[];
      cc?: string[];
      bcc?: string[];
      subject?: string;
      text?: string;
      html?: string | null;
      attachments?: (
        | {
            uploadId: string;
          }
        | {
            messageId: string;
            index: number;
          }
      )[];
      inReplyTo?: string | null;
      from?: string;
      draftId?: string;
    };
    response: {
      message: Message;
      thread: MailThreadSummary;
      rejected: string[];
    };
  };
  /** A presigned PUT link (15 minutes) for one attachment, bound to its type and size */
  postMailMailboxesUploads: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: {
      filename: string;
      contentType: string;
      size: number;
    };
    response: {
      upload: {
        uploadId: string;
        filename: string;
        contentType: string;
        size: number;
        url: string;
        method: 'PUT';
        headers: {
          [key: string]: string;
        };
        expiresAt: number;
      };
    };
  };
  /** Per address: well formed, a platform mailbox (internal), someone the mailbox exchanged mail with (contact), on the suppression list */
  postMailMailboxesRecipientsCheck: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: {
      addresses: string[];
    };
    response: {
      recipients: {
        address: string;
        valid: boolean;
        internal: boolean;
        contact: boolean;
        suppressed: boolean;
      }[];
    };
  };
  /** Saves a draft (to, cc, bcc, subject, text, html, attachments as upload ids or forwarded parts, inReplyTo) */
  postMailMailboxesDrafts: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: {
      to?: string[];
      cc?: string[];
      bcc?: string[];
      subject?: string;
      text?: string;
      html?: string | null;
      attachments?: (
        | {
            uploadId: string;
          }
        | {
            messageId: string;
            index: number;
          }
      )[];
      inReplyTo?: string | null;
    };
    response: {
      draft: Draft;
    };
  };
  /** The mailbox's drafts (the Drafts folder), newest first, paged with `cursor` */
  getMailMailboxesDrafts: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: {
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      drafts: Draft[];
      cursor: string | null;
    };
  };
  /** A draft */
  getMailMailboxesDraftsByDraftId: {
    params: {
      orgId: string;
      mailboxId: string;
      draftId: string;
    };
    query: object;
    body: undefined;
    response: {
      draft: Draft;
    };
  };
  /** Replaces a draft's fields */
  putMailMailboxesDraftsByDraftId: {
    params: {
      orgId: string;
      mailboxId: string;
      draftId: string;
    };
    query: object;
    body: {
      to?: string[];
      cc?: string[];
      bcc?: string[];
      subject?: string;
      text?: string;
      html?: string | null;
      attachments?: (
        | {
            uploadId: string;
          }
        | {
            messageId: string;
            index: number;
          }
      )[];
      inReplyTo?: string | null;
      ifVersion?: number;
    };
    response: {
      draft: Draft;
    };
  };
  /** Deletes a draft */
  deleteMailMailboxesDraftsByDraftId: {
    params: {
      orgId: string;
      mailboxId: string;
      draftId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** The API traffic of the whole platform, or of one organization (`orgId`): the same series, totals and top routes as an organization’s `GET …/analytics` (`from`, `to` at most 90 days apart, `interval` hour|day) */
  getPlatformAnalytics: {
    params: object;
    query: {
      from?: string;
      to?: string;
      interval?: 'hour' | 'day';
      orgId?: string;
    };
    body: undefined;
    response: {
      from: string;
      to: string;
      interval: 'hour' | 'day';
      projectId: string | null;
      series: {
        at: string;
        requests: number;
        clientErrors: number;
        serverErrors: number;
        durationMs: number;
        avgDurationMs: number;
        deploymentsCreated: number;
        issuesCreated: number;
        mailSent: number;
        mailReceived: number;
        edgeRequests: number;
        buildsSucceeded: number;
        buildsFailed: number;
        buildSeconds: number;
      }[];
      totals: {
        requests: number;
        clientErrors: number;
        serverErrors: number;
        durationMs: number;
        avgDurationMs: number;
        deploymentsCreated: number;
        issuesCreated: number;
        mailSent: number;
        mailReceived: number;
        edgeRequests: number;
        buildsSucceeded: number;
        buildsFailed: number;
        buildSeconds: number;
      };
      topRoutes: {
        route: string;
        requests: number;
        clientErrors: number;
        serverErrors: number;
      }[];
      orgId: string | null;
    };
  };
  /** Every organization’s audit entries and the platform’s own (its operators’ writes), newest first, by day (`from`/`to`, default the last 30 days, at most 90) */
  getPlatformAudit: {
    params: object;
    query: {
      orgId?: string;
      actor?: string;
      action?: string;
      target?: string;
      from?: string;
      to?: string;
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      entries: {
        orgId: string | null;
        at: string;
        actor: {
          kind: 'user' | 'api_key' | 'agent_key' | 'device';
          id: string;
          email: string | null;
        };
        action: string;
        route: string;
        target: {
          [key: string]: string;
        };
        status: number;
        requestId: string;
        ip: string | null;
        userAgent: string | null;
        fields: string[];
      }[];
      cursor: string | null;
    };
  };
  /** Totals by kind: organizations, projects, deployments (created), repositories, databases, buckets, mailboxes, mail domains, domains, webhooks, connectors, pages, sign-in clients, issues and pull requests (opened) */
  getPlatformStats: {
    params: object;
    query: object;
    body: undefined;
    response: {
      totals: {
        [key: string]: number;
      };
      updatedAt: number | null;
    };
  };
  /** Every organization (oldest first) with its plan, status and counts (members, projects, resources) */
  getPlatformOrgs: {
    params: object;
    query: {
      q?: string;
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      organizations: {
        orgId: string;
        slug: string;
        name: string;
        kind: 'platform' | 'customer';
        status: 'active' | 'suspended' | 'deleting';
        plan: {
          id: string;
          name: string;
        } | null;
        counts: {
          members: number;
          projects: number;
          resources: number;
        };
        createdAt: number;
        updatedAt: number | null;
        version: number;
      }[];
      cursor: string | null;
    };
  };
  /** Sets an organization's plan (`planId` */
  patchPlatformOrgsByOrgId: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      planId?: string | null;
      status?: 'active' | 'suspended';
      ifVersion?: number;
    };
    response: {
      organization: {
        orgId: string;
        slug: string;
        name: string;
        kind: 'platform' | 'customer';
        status: 'active' | 'suspended' | 'deleting';
        plan: {
          id: string;
          name: string;
        } | null;
        counts: {
          members: number;
          projects: number;
          resources: number;
        };
        createdAt: number;
        updatedAt: number | null;
        version: number;
      };
    };
  };
  /** Mail per organization this month (mailboxes, sent, received, bounces, complaints */
  getPlatformMailUsage: {
    params: object;
    query: {
      q?: string;
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      month: string;
      quota: {
        max24HourSend: number;
        maxSendRate: number;
        sentLast24Hours: number;
        sendingEnabled: boolean;
        productionAccess: boolean;
      };
      organizations: {
        orgId: string;
        slug: string;
        name: string;
        mailboxes: number;
        sent: number;
        received: number;
        sentToday: number;
        bounces: number;
        complaints: number;
      }[];
      cursor: string | null;
    };
  };
  /** The regions with their locations (enabled or not) and the default location */
  getPlatformRegions: {
    params: object;
    query: object;
    body: undefined;
    response: {
      regions: {
        id: string;
        name: string;
        enabled: boolean;
        version: number;
        updatedAt: number;
        locations: {
          id: string;
          name: string;
          region: string;
          enabled: boolean;
          default: boolean;
          version: number;
          updatedAt: number;
        }[];
      }[];
      defaultLocation: string;
    };
  };
  /** Changes a region's `name` or `enabled` (disabling one that enabled locations use is 409) */
  putPlatformRegionsByRegionId: {
    params: {
      regionId: string;
    };
    query: object;
    body: {
      name?: string;
      enabled?: boolean;
      ifVersion?: number;
    };
    response: {
      region: {
        id: string;
        name: string;
        enabled: boolean;
        version: number;
        updatedAt: number;
        locations: {
          id: string;
          name: string;
          region: string;
          enabled: boolean;
          default: boolean;
          version: number;
          updatedAt: number;
        }[];
      };
    };
  };
  /** Changes a location's `name`, `region`, `enabled` or `default` (`GET /v1/locations` lists the enabled ones) */
  putPlatformLocationsByLocationId: {
    params: {
      locationId: string;
    };
    query: object;
    body: {
      name?: string;
      region?: string;
      enabled?: boolean;
      default?: boolean;
      ifVersion?: number;
    };
    response: {
      location: {
        id: string;
        name: string;
        region: string;
        enabled: boolean;
        default: boolean;
        version: number;
        updatedAt: number;
      };
    };
  };
  /** The plans with their limits */
  getPlatformPlans: {
    params: object;
    query: object;
    body: undefined;
    response: {
      plans: {
        id: string;
        name: string;
        limits: {
          [key: string]: number;
        };
        enforced: string[];
        version: number;
        updatedAt: number;
      }[];
      enforced: string[];
      kept: string[];
    };
  };
  /** Changes a plan's `name` or `limits` (replaced as a whole: a limit left out is no limit) */
  putPlatformPlansByPlanId: {
    params: {
      planId: string;
    };
    query: object;
    body: {
      name?: string;
      limits?: {
        requests?: number;
        keyRequests?: number;
        builds?: number;
        importGb?: number;
        members?: number;
        projects?: number;
        databases?: number;
        buckets?: number;
        storageGb?: number;
        mailPerDay?: number;
      };
      ifVersion?: number;
    };
    response: {
      plan: {
        id: string;
        name: string;
        limits: {
          [key: string]: number;
        };
        enforced: string[];
        version: number;
        updatedAt: number;
      };
    };
  };
  /** The catalog of models offered to organizations: name, provider, enabled */
  getPlatformModels: {
    params: object;
    query: object;
    body: undefined;
    response: {
      models: {
        id: string;
        name: string;
        provider: string;
        enabled: boolean;
        version: number;
        updatedAt: number;
      }[];
    };
  };
  /** Changes a model's `name`, `provider` or `enabled` */
  putPlatformModelsByModelId: {
    params: {
      modelId: string;
    };
    query: object;
    body: {
      name?: string;
      provider?: string;
      enabled?: boolean;
      ifVersion?: number;
    };
    response: {
      model: {
        id: string;
        name: string;
        provider: string;
        enabled: boolean;
        version: number;
        updatedAt: number;
      };
    };
  };
  /** The mailbox's address books, the default one first (made on the first call) */
  getMailMailboxesAddressBooks: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: undefined;
    response: {
      addressBooks: AddressBook[];
    };
  };
  /** Creates an address book */
  postMailMailboxesAddressBooks: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: {
      name: unknown;
    };
    response: {
      addressBook: AddressBook;
    };
  };
  /** Renames an address book (`name`: any JSON, kept as text) */
  patchMailMailboxesAddressBooksByAddressBookId: {
    params: {
      orgId: string;
      mailboxId: string;
      addressBookId: string;
    };
    query: object;
    body: {
      name: unknown;
    };
    response: {
      addressBook: AddressBook;
    };
  };
  /** Deletes an address book with its contacts and their photos (never the default one) */
  deleteMailMailboxesAddressBooksByAddressBookId: {
    params: {
      orgId: string;
      mailboxId: string;
      addressBookId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** The mailbox's contacts (or one address book's), oldest first */
  getMailMailboxesContacts: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: {
      q?: string;
      addressBookId?: string;
      cursor?: string;
      limit?: number;
    };
    body: undefined;
    response: {
      contacts: Contact[];
      cursor: string | null;
    };
  };
  /** Creates a contact */
  postMailMailboxesAddressBooksContacts: {
    params: {
      orgId: string;
      mailboxId: string;
      addressBookId: string;
    };
    query: object;
    body: {
      fullName?: string;
      name?: {
        family?: string;
        given?: string;
        additional?: string;
        prefix?: string;
        suffix?: string;
      };
      nickname?: string;
      emails?: {
        value: string;
        type?: string;
        pref?: boolean;
      }[];
      phones?: {
        value: string;
        type?: string;
        pref?: boolean;
      }[];
      urls?: {
        value: string;
        type?: string;
        pref?: boolean;
      }[];
      addresses?: {
        type?: 'home' | 'work' | 'other';
        poBox?: string;
        extended?: string;
        street?: string;
        locality?: string;
        region?: string;
        postalCode?: string;
        country?: string;
      }[];
      organization?: unknown;
      department?: unknown;
      title?: unknown;
      birthday?: string;
      anniversary?: string;
      notes?: string;
      categories?: string[];
    };
    response: {
      contact: Contact;
    };
  };
  /** A contact */
  getMailMailboxesAddressBooksContactsByContactId: {
    params: {
      orgId: string;
      mailboxId: string;
      addressBookId: string;
      contactId: string;
    };
    query: object;
    body: undefined;
    response: {
      contact: Contact;
    };
  };
  /** Changes a contact: fields left out keep their value, an empty `birthday` or `anniversary` clears it */
  putMailMailboxesAddressBooksContactsByContactId: {
    params: {
      orgId: string;
      mailboxId: string;
      addressBookId: string;
      contactId: string;
    };
    query: object;
    body: {
      fullName?: string;
      name?: {
        family?: string;
        given?: string;
        additional?: string;
        prefix?: string;
        suffix?: string;
      };
      nickname?: string;
      emails?: {
        value: string;
        type?: string;
        pref?: boolean;
      }[];
      phones?: {
        value: string;
        type?: string;
        pref?: boolean;
      }[];
      urls?: {
        value: string;
        type?: string;
        pref?: boolean;
      }[];
      addresses?: {
        type?: 'home' | 'work' | 'other';
        poBox?: string;
        extended?: string;
        street?: string;
        locality?: string;
        region?: string;
        postalCode?: string;
        country?: string;
      }[];
      organization?: unknown;
      department?: unknown;
      title?: unknown;
      birthday?: string;
      anniversary?: string;
      notes?: string;
      categories?: string[];
      ifVersion?: number;
    };
    response: {
      contact: Contact;
    };
  };
  /** Deletes a contact and its photo */
  deleteMailMailboxesAddressBooksContactsByContactId: {
    params: {
      orgId: string;
      mailboxId: string;
      addressBookId: string;
      contactId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** A link to the contact's photo, valid 5 minutes */
  getMailMailboxesContactsPhoto: {
    params: {
      orgId: string;
      mailboxId: string;
      contactId: string;
    };
    query: object;
    body: undefined;
    response: {
      url: string;
    };
  };
  /** Sets the contact's photo: `data` is the image in base64 (at most 1 MB of image, 2 MB of body) */
  putMailMailboxesContactsPhoto: {
    params: {
      orgId: string;
      mailboxId: string;
      contactId: string;
    };
    query: object;
    body: {
      contentType: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
      data: string;
    };
    response: {
      contact: Contact;
    };
  };
  /** Removes the contact's photo */
  deleteMailMailboxesContactsPhoto: {
    params: {
      orgId: string;
      mailboxId: string;
      contactId: string;
    };
    query: object;
    body: undefined;
    response: {
      contact: Contact;
    };
  };
  /** Imports vCard 2.1, 3.0 and 4.0 files, 200 cards per call */
  postMailMailboxesAddressBooksImport: {
    params: {
      orgId: string;
      mailboxId: string;
      addressBookId: string;
    };
    query: object;
    body: {
      content?: string;
      size?: number;
      next?: string;
    };
    response: ContactImportResult;
  };
  /** The address book as a vCard file (`text/vcard`), `version` 3.0 (default) or 4.0, photos inline */
  getMailMailboxesAddressBooksExport: {
    params: {
      orgId: string;
      mailboxId: string;
      addressBookId: string;
    };
    query: {
      version?: '3.0' | '4.0';
      link?: 'true' | 'false';
    };
    body: undefined;
    response: string;
  };
  /** The mailbox's calendars, the default first (created with the first read) */
  getMailMailboxesCalendars: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: undefined;
    response: {
      calendars: Calendar[];
    };
  };
  /** Creates a calendar (at most 50 a mailbox, the default included) */
  postMailMailboxesCalendars: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: object;
    body: {
      name: string;
      color?: 'blue' | 'orange' | 'teal' | 'amber' | 'pink' | 'green' | 'red' | 'gray';
      description?: string;
    };
    response: {
      calendar: Calendar;
    };
  };
  /** Changes a calendar's name, color or description */
  patchMailMailboxesCalendarsByCalendarId: {
    params: {
      orgId: string;
      mailboxId: string;
      calendarId: string;
    };
    query: object;
    body: {
      name?: string;
      color?: 'blue' | 'orange' | 'teal' | 'amber' | 'pink' | 'green' | 'red' | 'gray';
      description?: string;
    };
    response: {
      calendar: Calendar;
    };
  };
  /** Deletes a calendar with its events (nobody is emailed) */
  deleteMailMailboxesCalendarsByCalendarId: {
    params: {
      orgId: string;
      mailboxId: string;
      calendarId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Occurrences in [from, to) (UTC ms, at most 400 days), of every calendar or those of `calendarId` (comma-separated), sorted by start: series expanded in their own zone, changed occurrences and deleted ones applied */
  getMailMailboxesEvents: {
    params: {
      orgId: string;
      mailboxId: string;
    };
    query: {
      from: number;
      to: number;
      calendarId?: string;
    };
    body: undefined;
    response: {
      occurrences: Occurrence[];
    };
  };
  /** Creates an event: wall-clock start and end in an IANA timeZone (a time in a DST gap moves forward, an ambiguous one takes the first), an optional repeat rule */
  postMailMailboxesCalendarsEvents: {
    params: {
      orgId: string;
      mailboxId: string;
      calendarId: string;
    };
    query: object;
    body: {
      summary?: string;
      description?: string;
      location?: string;
      allDay?: boolean;
      start: string;
      end: string;
      timeZone: string;
      recurrence?: {
        freq: 'daily' | 'weekly' | 'monthly' | 'yearly';
        interval?: number;
        count?: number;
        until?: string;
        byDay?: {
          day: 'SU' | 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA';
          nth?: number;
        }[];
        byMonthDay?: number[];
        byMonth?: number[];
        bySetPos?: number[];
        weekStart?: 'SU' | 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA';
      } | null;
      attendees?: {
        email: string;
        name?: string;
        optional?: boolean;
      }[];
      busyStatus?: 'free' | 'tentative' | 'busy' | 'oof' | 'workingElsewhere';
      sensitivity?: 'normal' | 'personal' | 'private' | 'confidential';
      reminders?: number[];
      categories?: string[];
      url?: string | null;
      status?: 'confirmed' | 'tentative' | 'cancelled';
      notify?: boolean;
    };
    response: {
      event: CalendarEvent;
      notified: CalendarNotified;
    };
  };
  /** An event (a series with its changed occurrences) */
  getMailMailboxesCalendarsEventsByEventId: {
    params: {
      orgId: string;
      mailboxId: string;
      calendarId: string;
      eventId: string;
    };
    query: object;
    body: undefined;
    response: {
      event: CalendarEvent;
    };
  };
  /** Changes an event (fields left out are kept) or, with recurrenceId (its original start), one occurrence */
  putMailMailboxesCalendarsEventsByEventId: {
    params: {
      orgId: string;
      mailboxId: string;
      calendarId: string;
      eventId: string;
    };
    query: object;
    body: {
      summary?: string;
      description?: string;
      location?: string;
      allDay?: boolean;
      start?: string;
      end?: string;
      timeZone?: string;
      recurrence?: {
        freq: 'daily' | 'weekly' | 'monthly' | 'yearly';
        interval?: number;
        count?: number;
        until?: string;
        byDay?: {
          day: 'SU' | 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA';
          nth?: number;
        }[];
        byMonthDay?: number[];
        byMonth?: number[];
        bySetPos?: number[];
        weekStart?: 'SU' | 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA';
      } | null;
      attendees?: {
        email: string;
        name?: string;
        optional?: boolean;
      }[];
      busyStatus?: 'free' | 'tentative' | 'busy' | 'oof' | 'workingElsewhere';
      sensitivity?: 'normal' | 'personal' | 'private' | 'confidential';
      reminders?: number[];
      categories?: string[];
      url?: string | null;
      status?: 'confirmed' | 'tentative' | 'cancelled';
      notify?: boolean;
      recurrenceId?: number;
      ifVersion?: number;
      moveTo?: unknown;
    };
    response: {
      event: CalendarEvent;
      notified: CalendarNotified;
      cancelled: number;
    };
  };
  /** Deletes an event, or one occurrence with `recurrenceId` */
  deleteMailMailboxesCalendarsEventsByEventId: {
    params: {
      orgId: string;
      mailboxId: string;
      calendarId: string;
      eventId: string;
    };
    query: {
      recurrenceId?: number;
      notify?: 'true' | 'false';
    };
    body: undefined;
    response: undefined;
  };
  /** Answers an invitation (the series, or one occurrence with recurrenceId): sets myStatus and mails the organizer a REPLY */
  postMailMailboxesCalendarsEventsRespond: {
    params: {
      orgId: string;
      mailboxId: string;
      calendarId: string;
      eventId: string;
    };
    query: object;
    body: {
      status: 'accepted' | 'tentative' | 'declined';
      recurrenceId?: number;
      comment?: string;
    };
    response: {
      event: CalendarEvent;
      notified: CalendarNotified;
    };
  };
  /** Imports an iCalendar file, 200 events a call */
  postMailMailboxesCalendarsImport: {
    params: {
      orgId: string;
      mailboxId: string;
      calendarId: string;
    };
    query: object;
    body: {
      content?: string;
      size?: number;
      next?: string;
    };
    response: {
      imported: number;
      updated: number;
      skipped: number;
      warnings: string[];
      next: string | null;
      done: boolean;
      upload?: {
        url: string;
        method: 'PUT';
        headers: {
          [key: string]: string;
        };
      };
    };
  };
  /** The calendar as an iCalendar file (`text/calendar`): a VTIMEZONE per zone, series with RRULE and EXDATE, changed occurrences as RECURRENCE-ID events, all-day events as dates */
  getMailMailboxesCalendarsExport: {
    params: {
      orgId: string;
      mailboxId: string;
      calendarId: string;
    };
    query: {
      link?: 'true' | 'false';
    };
    body: undefined;
    response: string;
  };
  /** Whether the calendar has a subscription feed, and when it was made and last rotated (`feed: null` when it has none) */
  getMailMailboxesCalendarsFeed: {
    params: {
      orgId: string;
      mailboxId: string;
      calendarId: string;
    };
    query: object;
    body: undefined;
    response: {
      feed: {
        createdAt: number;
        rotatedAt: number | null;
      } | null;
    };
  };
  /** Makes the calendar a subscription feed: a secret address (`url`, and `webcalUrl` for a subscribe link) that any calendar application reads without signing in, answered this once */
  postMailMailboxesCalendarsFeed: {
    params: {
      orgId: string;
      mailboxId: string;
      calendarId: string;
    };
    query: object;
    body: undefined;
    response: {
      feed: {
        createdAt: number;
        rotatedAt: number | null;
        url: string;
        webcalUrl: string;
      };
    };
  };
  /** Ends the calendar's feed: its address answers 404 from now on */
  deleteMailMailboxesCalendarsFeed: {
    params: {
      orgId: string;
      mailboxId: string;
      calendarId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** A new secret address for the calendar's feed, answered this once */
  postMailMailboxesCalendarsFeedRotate: {
    params: {
      orgId: string;
      mailboxId: string;
      calendarId: string;
    };
    query: object;
    body: undefined;
    response: {
      feed: {
        createdAt: number;
        rotatedAt: number | null;
        url: string;
        webcalUrl: string;
      };
    };
  };
  /** A calendar's subscription feed (`<token>.ics`, no token header: the address is the secret): iCalendar (RFC 5545) with a VTIMEZONE per zone, read-only */
  getFeedsByFile: {
    params: {
      file: string;
    };
    query: object;
    body: undefined;
    response: string;
  };
  /** The spaces the caller can browse, by key */
  getIssuesSpaces: {
    params: {
      orgId: string;
    };
    query: {
      archived?: '0' | '1';
    };
    body: undefined;
    response: {
      spaces: TrackerSpace[];
    };
  };
  /** Creates a space from a template (Jira’s issue types and workflows */
  postIssuesSpaces: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      key: string;
      name: string;
      template: 'scrum' | 'kanban' | 'bugs' | 'service' | 'basic';
      description?: string;
      leadId?: string;
      icon?: string;
      color?: 'gray' | 'blue' | 'green' | 'teal' | 'yellow' | 'orange' | 'red' | 'pink' | 'purple';
    };
    response: {
      space: TrackerSpace;
    };
  };
  /** A space by key (former keys too) or `spc_` id, with the caller’s permissions, the 21 permission names in order, its versions and components */
  getIssuesSpacesBySpaceKey: {
    params: {
      orgId: string;
      spaceKey: string;
    };
    query: object;
    body: undefined;
    response: {
      space: TrackerSpace;
      permissions: {
        [key: string]: boolean;
      };
      allPermissions: string[];
      versions: TrackerVersion[];
      components: TrackerComponent[];
    };
  };
  /** Changes a space’s name, key (old keys keep resolving */
  patchIssuesSpacesBySpaceKey: {
    params: {
      orgId: string;
      spaceKey: string;
    };
    query: object;
    body: {
      name?: string;
      key?: string;
      description?: string;
      leadId?: string;
      icon?: string;
      color?: 'gray' | 'blue' | 'green' | 'teal' | 'yellow' | 'orange' | 'red' | 'pink' | 'purple';
      archived?: boolean;
      config?: {
        issueTypeIds?: string[];
        defaultTypeId?: string;
        workflows?: {
          [key: string]: string;
        };
        screens?: {
          create: {
            [key: string]: string;
          };
          edit: {
            [key: string]: string;
          };
          view: {
            [key: string]: string;
          };
        };
        fieldSettings?: {
          [key: string]: {
            required?: boolean;
            hidden?: boolean;
            description?: string;
          };
        };
        customFieldIds?: string[];
        access?: {
          visibility: 'org' | 'private';
          members: {
            type: 'user' | 'team';
            id: string;
            role: 'admin' | 'member' | 'viewer';
          }[];
        };
        permissionSchemeId?: string;
        securityLevels?: {
          id: string;
          name: string;
          description?: string;
          grants: {
            type: string;
            role?: string;
            id?: string;
          }[];
        }[];
        defaultSecurityLevelId?: string;
        notifications?: {
          [key: string]: ('assignee' | 'reporter' | 'watchers' | 'lead' | 'participants')[];
        };
        defaultAssignee?: 'unassigned' | 'lead';
        estimation?: 'storyPoints' | 'originalEstimate' | 'count';
        servicedesk?: {
          requestTypes?: {
            id: string;
            name: string;
            description?: string;
            icon?: string;
            typeId: string;
            group?: string;
            fields: string[];
            hidden?: boolean;
          }[];
          queues?: {
            id: string;
            name: string;
            query: string;
            columns?: string[];
          }[];
          slas?: {
            id: string;
            name: string;
            start: string[];
            pause: string[];
            stop: string[];
            goals: {
              query?: string;
              minutes: number;
              calendar: 'business' | 'always';
            }[];
          }[];
          hours?: {
            timeZone: string;
            days: {
              [key: string]: string[];
            };
            holidays: string[];
          };
          satisfaction?: boolean;
        };
      };
    };
    response: {
      space: TrackerSpace;
    };
  };
  /** The boards over spaces the caller can browse */
  getIssuesBoards: {
    params: {
      orgId: string;
    };
    query: {
      space?: string;
    };
    body: undefined;
    response: {
      boards: Board[];
    };
  };
  /** Creates a scrum or kanban board over 1-20 spaces, one column per status of their workflows */
  postIssuesBoards: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      name: string;
      type: 'scrum' | 'kanban';
      spaces: string[];
      query?: string;
    };
    response: {
      board: Board;
    };
  };
  /** GET /v1/orgs/:orgId/issues/boards/:boardId */
  getIssuesBoardsByBoardId: {
    params: {
      orgId: string;
      boardId: string;
    };
    query: object;
    body: undefined;
    response: {
      board: Board;
    };
  };
  /** Changes a board’s name and configuration (each `config` field given replaces the stored one) */
  patchIssuesBoardsByBoardId: {
    params: {
      orgId: string;
      boardId: string;
    };
    query: object;
    body: {
      name?: string;
      config?: {
        spaceIds?: string[];
        query?: string;
        columns?: {
          id: string;
          name: string;
          statusIds: string[];
          min?: number;
          max?: number;
        }[];
        swimlanes?: 'none' | 'assignee' | 'epic' | 'parent' | 'priority' | 'query';
        swimlaneQueries?: {
          id: string;
          name: string;
          query: string;
        }[];
        quickFilters?: {
          id: string;
          name: string;
          query: string;
        }[];
        cardFields?: string[];
        estimation?: 'storyPoints' | 'originalEstimate' | 'count';
        hideDoneAfterDays?: number;
        kanbanBacklog?: boolean;
        wipExcludesSubtasks?: boolean;
        sharing?: {
          org: boolean;
          teams: string[];
          users: string[];
        };
      };
      baseVersion?: number;
    };
    response: {
      board: Board;
    };
  };
  /** Deletes a board without an active sprint */
  deleteIssuesBoardsByBoardId: {
    params: {
      orgId: string;
      boardId: string;
    };
    query: object;
    body: undefined;
    response: {
      boardId: string;
    };
  };
  /** The board’s cards in rank order: the active sprint’s issues (scrum */
  getIssuesBoardsIssues: {
    params: {
      orgId: string;
      boardId: string;
    };
    query: {
      quickFilters?: string;
      sprint?: string;
    };
    body: undefined;
    response: {
      board: Board;
      issues: Issue[];
      columns: ColumnLoad[];
      sprints: Sprint[];
      lanes: {
        [key: string]: string;
      };
      parents: {
        [key: string]: {
          issueId: string;
          key: string;
          summary: string;
          typeId: string;
          statusId: string;
          parentId?: string;
        };
      };
      subtasks: {
        [key: string]: IssueCounts;
      };
      spaces: {
        spaceId: string;
        key: string;
        name: string;
      }[];
    };
  };
  /** The backlog: open sprints with their issues, the issues outside them, epics with progress */
  getIssuesBoardsBacklog: {
    params: {
      orgId: string;
      boardId: string;
    };
    query: {
      quickFilters?: string;
    };
    body: undefined;
    response: {
      board: Board;
      sprints: {
        sprintId: string;
        boardId: string;
        name: string;
        goal: string;
        state: 'active' | 'closed' | 'future';
        startDate?: number;
        endDate?: number;
        completedAt?: number;
        position: number;
        createdAt: number;
        data: {
          capacity?: number;
          report?: {
            committed: number;
            added: number;
            removed: number;
            completed: number;
            incomplete: number;
            completedIssueIds: string[];
            incompleteIssueIds: string[];
            carriedTo?: string;
          };
        };
        issueIds: string[];
      }[];
      issues: Issue[];
      backlogIds: string[];
      epics: {
        issueId: string;
        key: string;
        summary: string;
        statusCategory: string;
        progress: {
          total: number;
          done: number;
          points: number;
        };
      }[];
      subtaskCounts: {
        [key: string]: {
          total: number;
          done: number;
          points: number;
        };
      };
    };
  };
  /** Moves a card to a column through its workflow’s transition (none: 409 */
  postIssuesBoardsMove: {
    params: {
      orgId: string;
      boardId: string;
    };
    query: object;
    body: {
      issue: string;
      columnId: string;
      before?: string;
      after?: string;
      fields?: {
        summary?: string;
        type?: string;
        description?: string;
        priority?: string | null;
        securityLevel?: string | null;
        resolution?: string | null;
        assignee?: string | null;
        reporter?: string | null;
        labels?: string[];
        components?: string[];
        fixVersions?: string[];
        affectsVersions?: string[];
        dueDate?: string | null;
        startDate?: string | null;
        storyPoints?: number | null;
        originalEstimate?: number | string | null;
        remainingEstimate?: number | string | null;
        environment?: string | null;
        parent?: string | null;
        sprint?: string | null;
        fields?: {
          [key: string]: unknown;
        };
        requestType?: string;
        participants?: string[];
      };
    };
    response: {
      issue: Issue;
      transition: string | null;
      column?: ColumnLoad;
    };
  };
  /** The board’s sprints (Jira’s GET /board/{id}/sprint), in board order */
  getIssuesBoardsSprints: {
    params: {
      orgId: string;
      boardId: string;
    };
    query: object;
    body: undefined;
    response: {
      sprints: Sprint[];
    };
  };
  /** Creates a future sprint on a scrum board (name defaults to "<board> Sprint <n>") */
  postIssuesBoardsSprints: {
    params: {
      orgId: string;
      boardId: string;
    };
    query: object;
    body: {
      name?: string;
      goal?: string;
      startDate?: number;
      endDate?: number;
      capacity?: number;
    };
    response: {
      sprint: Sprint;
    };
  };
  /** Velocity: the last 7 closed sprints, committed and completed estimates in the board’s estimation */
  getIssuesBoardsVelocity: {
    params: {
      orgId: string;
      boardId: string;
    };
    query: object;
    body: undefined;
    response: {
      estimation: string;
      sprints: {
        sprintId: string;
        name: string;
        completedAt: number | null;
        committed: number;
        completed: number;
      }[];
    };
  };
  /** A sprint, with its report once closed (`data.report`: committed, added, removed, completed, incomplete) */
  getIssuesSprintsBySprintId: {
    params: {
      orgId: string;
      sprintId: string;
    };
    query: object;
    body: undefined;
    response: {
      sprint: Sprint;
    };
  };
  /** Changes a sprint */
  patchIssuesSprintsBySprintId: {
    params: {
      orgId: string;
      sprintId: string;
    };
    query: object;
    body: {
      name?: string;
      goal?: string;
      startDate?: number;
      endDate?: number;
      capacity?: number;
      state?: 'active' | 'closed';
      carryTo?: string;
    };
    response: {
      sprint: Sprint;
    };
  };
  /** Deletes a sprint that is not active */
  deleteIssuesSprintsBySprintId: {
    params: {
      orgId: string;
      sprintId: string;
    };
    query: object;
    body: undefined;
    response: {
      sprintId: string;
    };
  };
  /** Up to 10,000 issues matching `jql` that the caller sees, as a file: Jira’s CSV layout (repeated columns for multi-valued fields, cells starting = + - @ neutralised) or this API’s JSON */
  getIssuesExport: {
    params: {
      orgId: string;
    };
    query: {
      jql?: string;
      format?: 'csv' | 'json';
    };
    body: undefined;
    response:
      | string
      | {
          format: 'tracker-issues/1';
          exportedAt: number;
          total: number;
          issues: Issue[];
        };
  };
  /** Imports a Jira CSV export (or this API’s JSON export) into a space, 200 records a call: pass `startRow` and `keyMap` from the previous answer until `done` */
  postIssuesImport: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      space: string;
      format: 'csv' | 'json';
      content?: string;
      file?: string;
      startRow?: number;
      keyMap?: {
        [key: string]: string;
      };
      createMissing?: boolean;
    };
    response: {
      total: number;
      processed: number;
      done: boolean;
      nextRow: number | null;
      keyMap: {
        [key: string]: string;
      };
      results: {
        row: number;
        key?: string;
        from?: string;
        error?: string;
        warnings?: string[];
      }[];
    };
  };
  /** Starts an import of a file too large for a request body (a 5 MB file escaped in JSON can pass the 6 MB a request may carry): `size` in bytes (up to 5 MB) */
  postIssuesImportUpload: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      space: string;
      format: 'csv' | 'json';
      size: number;
    };
    response: {
      upload: {
        url: string;
        method: 'PUT';
        headers: {
          [key: string]: string;
        };
        expiresAt: string;
      };
      file: string;
    };
  };
  /** Issues matching `jql` that the caller may see (a hidden issue is neither answered nor counted), in the query’s ORDER BY or `order` (default: most recently updated first) */
  getIssues: {
    params: {
      orgId: string;
    };
    query: {
      jql?: string;
      startAt?: number;
      maxResults?: number;
      order?: 'rank' | 'updated' | 'created' | 'key';
    };
    body: undefined;
    response: IssuePage;
  };
  /** Creates an issue in `space` (key or id) */
  postIssues: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      summary: string;
      type?: string;
      description?: string;
      priority?: string | null;
      securityLevel?: string | null;
      resolution?: string | null;
      assignee?: string | null;
      reporter?: string | null;
      labels?: string[];
      components?: string[];
      fixVersions?: string[];
      affectsVersions?: string[];
      dueDate?: string | null;
      startDate?: string | null;
      storyPoints?: number | null;
      originalEstimate?: number | string | null;
      remainingEstimate?: number | string | null;
      environment?: string | null;
      parent?: string | null;
      sprint?: string | null;
      fields?: {
        [key: string]: unknown;
      };
      requestType?: string;
      participants?: string[];
      space: string;
    };
    response: {
      issue: Issue;
    };
  };
  /** GET /issues with its fields in the body (for long queries) */
  postIssuesSearch: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      jql?: string;
      startAt?: number;
      maxResults?: number;
      order?: 'rank' | 'updated' | 'created' | 'key';
    };
    response: IssuePage;
  };
  /** Ranks 1-200 issues (in the order given) right before or after another one: exactly one of `before` and `after` */
  postIssuesRank: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      issues: string[];
      before?: string;
      after?: string;
    };
    response: {
      issues: {
        issueId: string;
        key: string;
        rank: string;
      }[];
    };
  };
  /** One operation over 1-200 issues, each on its own with one conditional write: `edit` (`fields`), `transition` (`transition`: id, name or target status */
  postIssuesBulk: {
    params: {
      orgId: string;
    };
    query: object;
    body: {
      issues: string[];
      operation: 'edit' | 'transition' | 'move' | 'delete' | 'watch' | 'unwatch';
      fields?: {
        summary?: string;
        type?: string;
        description?: string;
        priority?: string | null;
        securityLevel?: string | null;
        resolution?: string | null;
        assignee?: string | null;
        reporter?: string | null;
        labels?: string[];
        components?: string[];
        fixVersions?: string[];
        affectsVersions?: string[];
        dueDate?: string | null;
        startDate?: string | null;
        storyPoints?: number | null;
        originalEstimate?: number | string | null;
        remainingEstimate?: number | string | null;
        environment?: string | null;
        parent?: string | null;
        sprint?: string | null;
        fields?: {
          [key: string]: unknown;
        };
        requestType?: string;
        participants?: string[];
      };
      transition?: string;
      space?: string;
      type?: string;
    };
    response: {
      results: (
        | {
            issue: string;
            ok: true;
            key?: string;
          }
        | {
            issue: string;
            ok: false;
            error: string;
          }
      )[];
      done: number;
      failed: number;
    };
  };
  /** Labels used on the issues the caller sees (of one `space`), most used first */
  getIssuesLabels: {
    params: {
      orgId: string;
    };
    query: {
      space?: string;
    };
    body: undefined;
    response: {
      labels: string[];
    };
  };
  /** An issue by key (former keys of moved issues and renamed spaces too) or `iss_` id, with its space and its page: description, comments, links, attachments, children, the transitions open to the caller and the caller’s permissions on it */
  getIssuesByIssueKey: {
    params: {
      orgId: string;
      issueKey: string;
    };
    query: {
      remember?: '0' | '1';
    };
    body: undefined;
    response: {
      issue: Issue;
      space: {
        spaceId: string;
        key: string;
        name: string;
        template: string;
      };
      description: string;
      comments: unknown[];
      links: unknown[];
      worklogs: unknown[];
      attachments: unknown[];
      children: IssueSummary[];
      parent: IssueSummary | null;
      transitions: {
        id: string;
        name: string;
        to: string;
        fields: string[];
      }[];
      permissions: {
        [key: string]: boolean;
      };
    };
  };
  /** Edits an issue (Jira’s PUT /issue/{key}): the fields given, as on creation */
  putIssuesByIssueKey: {
    params: {
      orgId: string;
      issueKey: string;
    };
    query: object;
    body: {
      summary?: string;
      type?: string;
      description?: string;
      priority?: string | null;
      securityLevel?: string | null;
      resolution?: string | null;
      assignee?: string | null;
      reporter?: string | null;
      labels?: string[];
      components?: string[];
      fixVersions?: string[];
      affectsVersions?: string[];
      dueDate?: string | null;
      startDate?: string | null;
      storyPoints?: number | null;
      originalEstimate?: number | string | null;
      remainingEstimate?: number | string | null;
      environment?: string | null;
      parent?: string | null;
      sprint?: string | null;
      fields?: {
        [key: string]: unknown;
      };
      requestType?: string;
      participants?: string[];
    };
    response: {
      issue: Issue;
    };
  };
  /** An issue’s comments, oldest first (Jira’s GET /issue/{key}/comment) */
  getIssuesComments: {
    params: {
      orgId: string;
      issueKey: string;
    };
    query: object;
    body: undefined;
    response: {
      comments: IssueComment[];
    };
  };
  /** Comments on an issue */
  postIssuesComments: {
    params: {
      orgId: string;
      issueKey: string;
    };
    query: object;
    body: {
      body: string;
    };
    response: {
      comment: IssueComment;
    };
  };
  /** Edits a comment: its author, or holders of `editComments` */
  patchIssuesCommentsByCommentId: {
    params: {
      orgId: string;
      issueKey: string;
      commentId: string;
    };
    query: object;
    body: {
      body: string;
    };
    response: {
      comment: IssueComment;
    };
  };
  /** Deletes a comment: its author, or holders of `deleteComments` */
  deleteIssuesCommentsByCommentId: {
    params: {
      orgId: string;
      issueKey: string;
      commentId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Work logged on an issue (Jira’s GET /issue/{key}/worklog) */
  getIssuesWorklogs: {
    params: {
      orgId: string;
      issueKey: string;
    };
    query: object;
    body: undefined;
    response: {
      worklogs: Worklog[];
    };
  };
  /** Logs work: `timeSpent` in seconds or as `1h 30m` */
  postIssuesWorklogs: {
    params: {
      orgId: string;
      issueKey: string;
    };
    query: object;
    body: {
      timeSpent: number | string;
      started?: number;
      comment?: string;
    };
    response: {
      worklog: Worklog;
      issue: Issue;
    };
  };
  /** Links the issue to another (`type` blocks, relates, duplicates or clones */
  postIssuesLinks: {
    params: {
      orgId: string;
      issueKey: string;
    };
    query: object;
    body: {
      type: string;
      issue: string;
      direction?: 'outward' | 'inward';
    };
    response: {
      link: IssueLink;
    };
  };
  /** Removes a link from both issues */
  deleteIssuesLinksByLinkId: {
    params: {
      orgId: string;
      issueKey: string;
      linkId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Starts an attachment (up to 100 MB): a presigned PUT into the platform bucket */
  postIssuesAttachments: {
    params: {
      orgId: string;
      issueKey: string;
    };
    query: object;
    body: {
      filename: string;
      contentType: string;
      size: number;
    };
    response: {
      attachment: IssueAttachment;
      upload: {
        url: string;
        method: 'PUT';
        headers: {
          [key: string]: string;
        };
      };
    };
  };
  /** Marks an attachment uploaded once its file is in the bucket with the size announced (else 409) */
  postIssuesAttachmentsComplete: {
    params: {
      orgId: string;
      issueKey: string;
      attachmentId: string;
    };
    query: object;
    body: undefined;
    response: {
      attachment: IssueAttachment;
    };
  };
  /** An uploaded attachment with a presigned download link (5 minutes) */
  getIssuesAttachmentsByAttachmentId: {
    params: {
      orgId: string;
      issueKey: string;
      attachmentId: string;
    };
    query: object;
    body: undefined;
    response: {
      attachment: IssueAttachment;
      url: string;
    };
  };
  /** Deletes an attachment and its file: its author, or holders of `deleteAttachments` */
  deleteIssuesAttachmentsByAttachmentId: {
    params: {
      orgId: string;
      issueKey: string;
      attachmentId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** The transitions open from the issue’s status, with the fields each asks for (Jira’s GET /issue/{key}/transitions) */
  getIssuesTransitions: {
    params: {
      orgId: string;
      issueKey: string;
    };
    query: object;
    body: undefined;
    response: {
      transitions: IssueTransition[];
    };
  };
  /** Moves the issue through a transition (`transition`: its id, its name or the target status) */
  postIssuesTransitions: {
    params: {
      orgId: string;
      issueKey: string;
    };
    query: object;
    body: {
      transition: string;
      fields?: {
        summary?: string;
        type?: string;
        description?: string;
        priority?: string | null;
        securityLevel?: string | null;
        resolution?: string | null;
        assignee?: string | null;
        reporter?: string | null;
        labels?: string[];
        components?: string[];
        fixVersions?: string[];
        affectsVersions?: string[];
        dueDate?: string | null;
        startDate?: string | null;
        storyPoints?: number | null;
        originalEstimate?: number | string | null;
        remainingEstimate?: number | string | null;
        environment?: string | null;
        parent?: string | null;
        sprint?: string | null;
        fields?: {
          [key: string]: unknown;
        };
        requestType?: string;
        participants?: string[];
      };
    };
    response: {
      issue: Issue;
    };
  };
  /** Adds a version (release) to a space (Jira’s POST /version) */
  postIssuesSpacesVersions: {
    params: {
      orgId: string;
      spaceKey: string;
    };
    query: object;
    body: {
      name: string;
      description?: string;
      startDate?: string;
      releaseDate?: string;
    };
    response: {
      version: TrackerVersion;
    };
  };
  /** Changes a version */
  patchIssuesSpacesVersionsByVersionId: {
    params: {
      orgId: string;
      spaceKey: string;
      versionId: string;
    };
    query: object;
    body: {
      name?: string;
      description?: string;
      startDate?: string;
      releaseDate?: string;
      released?: boolean;
      archived?: boolean;
    };
    response: {
      version: TrackerVersion;
    };
  };
  /** DELETE /v1/orgs/:orgId/issues/spaces/:spaceKey/versions/:versionId */
  deleteIssuesSpacesVersionsByVersionId: {
    params: {
      orgId: string;
      spaceKey: string;
      versionId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
  /** Adds a component to a space (Jira’s POST /component) */
  postIssuesSpacesComponents: {
    params: {
      orgId: string;
      spaceKey: string;
    };
    query: object;
    body: {
      name: string;
      description?: string;
      leadId?: string;
      defaultAssignee?: 'space' | 'lead' | 'unassigned';
    };
    response: {
      component: TrackerComponent;
    };
  };
  /** PATCH /v1/orgs/:orgId/issues/spaces/:spaceKey/components/:componentId */
  patchIssuesSpacesComponentsByComponentId: {
    params: {
      orgId: string;
      spaceKey: string;
      componentId: string;
    };
    query: object;
    body: {
      name?: string;
      description?: string;
      leadId?: string;
      defaultAssignee?: 'space' | 'lead' | 'unassigned';
    };
    response: {
      component: TrackerComponent;
    };
  };
  /** DELETE /v1/orgs/:orgId/issues/spaces/:spaceKey/components/:componentId */
  deleteIssuesSpacesComponentsByComponentId: {
    params: {
      orgId: string;
      spaceKey: string;
      componentId: string;
    };
    query: object;
    body: undefined;
    response: undefined;
  };
}

export type OperationId = keyof Operations;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Method and path of each operation: path parameters in `{name}` form, everything else is the query. */
export const operations: Record<OperationId, { method: HttpMethod; path: string }> = {
  getHealth: { method: 'GET', path: '/health' },
  getMe: { method: 'GET', path: '/v1/me' },
  getLocations: { method: 'GET', path: '/v1/locations' },
  postLoginDevice: { method: 'POST', path: '/v1/login/device' },
  postLoginDeviceToken: { method: 'POST', path: '/v1/login/device/token' },
  postLoginDeviceAnswer: { method: 'POST', path: '/v1/login/device/answer' },
  getMeSessions: { method: 'GET', path: '/v1/me/sessions' },
  deleteMeSessionsBySessionId: { method: 'DELETE', path: '/v1/me/sessions/{sessionId}' },
  postMeAppPasswords: { method: 'POST', path: '/v1/me/app-passwords' },
  getMeAppPasswords: { method: 'GET', path: '/v1/me/app-passwords' },
  deleteMeAppPasswordsByPasswordId: { method: 'DELETE', path: '/v1/me/app-passwords/{passwordId}' },
  getMeDeviceCodesByUserCode: { method: 'GET', path: '/v1/me/device-codes/{userCode}' },
  postOrgs: { method: 'POST', path: '/v1/orgs' },
  getMeInvites: { method: 'GET', path: '/v1/me/invites' },
  postMeInvitesAccept: { method: 'POST', path: '/v1/me/invites/{inviteId}/accept' },
  getOrgsByOrgId: { method: 'GET', path: '/v1/orgs/{orgId}' },
  patchOrgsByOrgId: { method: 'PATCH', path: '/v1/orgs/{orgId}' },
  deleteOrgsByOrgId: { method: 'DELETE', path: '/v1/orgs/{orgId}' },
  getContents: { method: 'GET', path: '/v1/orgs/{orgId}/contents' },
  getMembers: { method: 'GET', path: '/v1/orgs/{orgId}/members' },
  postMembers: { method: 'POST', path: '/v1/orgs/{orgId}/members' },
  patchMembersByUserId: { method: 'PATCH', path: '/v1/orgs/{orgId}/members/{userId}' },
  deleteMembersByUserId: { method: 'DELETE', path: '/v1/orgs/{orgId}/members/{userId}' },
  postMembersInvites: { method: 'POST', path: '/v1/orgs/{orgId}/members/invites' },
  deleteMembersInvitesByInviteId: { method: 'DELETE', path: '/v1/orgs/{orgId}/members/invites/{inviteId}' },
  getKeys: { method: 'GET', path: '/v1/orgs/{orgId}/keys' },
  postKeys: { method: 'POST', path: '/v1/orgs/{orgId}/keys' },
  deleteKeysByKeyId: { method: 'DELETE', path: '/v1/orgs/{orgId}/keys/{keyId}' },
  getResources: { method: 'GET', path: '/v1/orgs/{orgId}/resources' },
  postResources: { method: 'POST', path: '/v1/orgs/{orgId}/resources' },
  patchResourcesByTypeAndResourceId: { method: 'PATCH', path: '/v1/orgs/{orgId}/resources/{type}/{resourceId}' },
  deleteResourcesByTypeAndResourceId: { method: 'DELETE', path: '/v1/orgs/{orgId}/resources/{type}/{resourceId}' },
  getDatabases: { method: 'GET', path: '/v1/orgs/{orgId}/databases' },
  getDatabasesByResourceId: { method: 'GET', path: '/v1/orgs/{orgId}/databases/{resourceId}' },
  deleteDatabasesByResourceId: { method: 'DELETE', path: '/v1/orgs/{orgId}/databases/{resourceId}' },
  postDatabasesScan: { method: 'POST', path: '/v1/orgs/{orgId}/databases/{resourceId}/scan' },
  postDatabasesQuery: { method: 'POST', path: '/v1/orgs/{orgId}/databases/{resourceId}/query' },
  postDatabasesItemsGet: { method: 'POST', path: '/v1/orgs/{orgId}/databases/{resourceId}/items/get' },
  putDatabasesItems: { method: 'PUT', path: '/v1/orgs/{orgId}/databases/{resourceId}/items' },
  postDatabasesItemsDelete: { method: 'POST', path: '/v1/orgs/{orgId}/databases/{resourceId}/items/delete' },
  postDatabasesIndexes: { method: 'POST', path: '/v1/orgs/{orgId}/databases/{resourceId}/indexes' },
  deleteDatabasesIndexesByIndexName: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/databases/{resourceId}/indexes/{indexName}',
  },
  getDatabasesMetrics: { method: 'GET', path: '/v1/orgs/{orgId}/databases/{resourceId}/metrics' },
  getDatabasesSettings: { method: 'GET', path: '/v1/orgs/{orgId}/databases/{resourceId}/settings' },
  patchDatabasesSettings: { method: 'PATCH', path: '/v1/orgs/{orgId}/databases/{resourceId}/settings' },
  patchDatabasesTags: { method: 'PATCH', path: '/v1/orgs/{orgId}/databases/{resourceId}/tags' },
  getStorage: { method: 'GET', path: '/v1/orgs/{orgId}/storage' },
  getStorageByResourceId: { method: 'GET', path: '/v1/orgs/{orgId}/storage/{resourceId}' },
  deleteStorageByResourceId: { method: 'DELETE', path: '/v1/orgs/{orgId}/storage/{resourceId}' },
  getStorageObjects: { method: 'GET', path: '/v1/orgs/{orgId}/storage/{resourceId}/objects' },
  getStorageObject: { method: 'GET', path: '/v1/orgs/{orgId}/storage/{resourceId}/object' },
  getStorageDownload: { method: 'GET', path: '/v1/orgs/{orgId}/storage/{resourceId}/download' },
  postStorageUploads: { method: 'POST', path: '/v1/orgs/{orgId}/storage/{resourceId}/uploads' },
  postStorageFolders: { method: 'POST', path: '/v1/orgs/{orgId}/storage/{resourceId}/folders' },
  postStorageObjectsDelete: { method: 'POST', path: '/v1/orgs/{orgId}/storage/{resourceId}/objects/delete' },
  getStorageSettings: { method: 'GET', path: '/v1/orgs/{orgId}/storage/{resourceId}/settings' },
  putStorageCors: { method: 'PUT', path: '/v1/orgs/{orgId}/storage/{resourceId}/cors' },
  putStorageVersioning: { method: 'PUT', path: '/v1/orgs/{orgId}/storage/{resourceId}/versioning' },
  postStorageLifecycle: { method: 'POST', path: '/v1/orgs/{orgId}/storage/{resourceId}/lifecycle' },
  deleteStorageLifecycleByRuleId: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/storage/{resourceId}/lifecycle/{ruleId}',
  },
  getProjects: { method: 'GET', path: '/v1/orgs/{orgId}/projects' },
  postProjects: { method: 'POST', path: '/v1/orgs/{orgId}/projects' },
  getProjectsByProjectId: { method: 'GET', path: '/v1/orgs/{orgId}/projects/{projectId}' },
  patchProjectsByProjectId: { method: 'PATCH', path: '/v1/orgs/{orgId}/projects/{projectId}' },
  deleteProjectsByProjectId: { method: 'DELETE', path: '/v1/orgs/{orgId}/projects/{projectId}' },
  postProjectsTransfer: { method: 'POST', path: '/v1/orgs/{orgId}/projects/{projectId}/transfer' },
  getProjectsEnv: { method: 'GET', path: '/v1/orgs/{orgId}/projects/{projectId}/env' },
  postProjectsEnv: { method: 'POST', path: '/v1/orgs/{orgId}/projects/{projectId}/env' },
  putProjectsEnvByKey: { method: 'PUT', path: '/v1/orgs/{orgId}/projects/{projectId}/env/{key}' },
  deleteProjectsEnvByKey: { method: 'DELETE', path: '/v1/orgs/{orgId}/projects/{projectId}/env/{key}' },
  postProjectsUploads: { method: 'POST', path: '/v1/orgs/{orgId}/projects/{projectId}/uploads' },
  postProjectsDeployments: { method: 'POST', path: '/v1/orgs/{orgId}/projects/{projectId}/deployments' },
  getDeploymentsBuildLog: { method: 'GET', path: '/v1/orgs/{orgId}/deployments/{deploymentId}/build-log' },
  getDeploymentsRuntimeLogsTail: {
    method: 'GET',
    path: '/v1/orgs/{orgId}/deployments/{deploymentId}/runtime-logs/tail',
  },
  getDeployments: { method: 'GET', path: '/v1/orgs/{orgId}/deployments' },
  getDeploymentsByDeploymentId: { method: 'GET', path: '/v1/orgs/{orgId}/deployments/{deploymentId}' },
  getDeploymentsLogs: { method: 'GET', path: '/v1/orgs/{orgId}/deployments/{deploymentId}/logs' },
  getDeploymentsRuntimeLogs: { method: 'GET', path: '/v1/orgs/{orgId}/deployments/{deploymentId}/runtime-logs' },
  postDeploymentsRedeploy: { method: 'POST', path: '/v1/orgs/{orgId}/deployments/{deploymentId}/redeploy' },
  postDeploymentsPromote: { method: 'POST', path: '/v1/orgs/{orgId}/deployments/{deploymentId}/promote' },
  postDeploymentsCancel: { method: 'POST', path: '/v1/orgs/{orgId}/deployments/{deploymentId}/cancel' },
  postReposImports: { method: 'POST', path: '/v1/orgs/{orgId}/repos/-/imports' },
  getReposImports: { method: 'GET', path: '/v1/orgs/{orgId}/repos/-/imports' },
  getReposImportsByImportId: { method: 'GET', path: '/v1/orgs/{orgId}/repos/-/imports/{importId}' },
  postReposImportsCancel: { method: 'POST', path: '/v1/orgs/{orgId}/repos/-/imports/{importId}/cancel' },
  getRepos: { method: 'GET', path: '/v1/orgs/{orgId}/repos' },
  postRepos: { method: 'POST', path: '/v1/orgs/{orgId}/repos' },
  getReposAvailable: { method: 'GET', path: '/v1/orgs/{orgId}/repos/-/available' },
  getReposPeople: { method: 'GET', path: '/v1/orgs/{orgId}/repos/-/people' },
  postReposRename: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/rename' },
  deleteReposByName: { method: 'DELETE', path: '/v1/orgs/{orgId}/repos/{name}' },
  getReposByName: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}' },
  patchReposByName: { method: 'PATCH', path: '/v1/orgs/{orgId}/repos/{name}' },
  getReposProtection: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/protection' },
  putReposProtection: { method: 'PUT', path: '/v1/orgs/{orgId}/repos/{name}/protection' },
  getReposBranches: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/branches' },
  postReposBranches: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/branches' },
  deleteReposBranches: { method: 'DELETE', path: '/v1/orgs/{orgId}/repos/{name}/branches' },
  getReposTags: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/tags' },
  postReposContents: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/contents' },
  postReposContentsUploads: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/contents/uploads' },
  postReposContentsArchive: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/contents/archive' },
  getReposContentsRaw: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/contents/raw' },
  getReposContentsFiles: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/contents/files' },
  postReposContentsBlobs: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/contents/blobs' },
  getReposCommits: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/commits' },
  getReposLastCommit: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/last-commit' },
  getReposLabels: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/labels' },
  putReposLabels: { method: 'PUT', path: '/v1/orgs/{orgId}/repos/{name}/labels' },
  deleteReposLabels: { method: 'DELETE', path: '/v1/orgs/{orgId}/repos/{name}/labels' },
  getReposCompare: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/compare' },
  getReposInsights: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/insights' },
  getReposTree: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/tree' },
  getReposBlob: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/blob' },
  getReposCommitsBySha: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/commits/{sha}' },
  getReposBranchesDivergence: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/branches/divergence' },
  getReposLastCommits: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/last-commits' },
  getGitCredentials: { method: 'GET', path: '/v1/orgs/{orgId}/git-credentials' },
  postGitCredentials: { method: 'POST', path: '/v1/orgs/{orgId}/git-credentials' },
  deleteGitCredentialsByKeyId: { method: 'DELETE', path: '/v1/orgs/{orgId}/git-credentials/{keyId}' },
  getReposIssues: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/issues' },
  postReposIssues: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/issues' },
  getReposIssuesByNumber: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/issues/{number}' },
  patchReposIssuesByNumber: { method: 'PATCH', path: '/v1/orgs/{orgId}/repos/{name}/issues/{number}' },
  postReposIssuesComments: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/issues/{number}/comments' },
  getReposPulls: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/pulls' },
  postReposPulls: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/pulls' },
  getReposPullsByNumber: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/pulls/{number}' },
  patchReposPullsByNumber: { method: 'PATCH', path: '/v1/orgs/{orgId}/repos/{name}/pulls/{number}' },
  postReposPullsClose: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/pulls/{number}/close' },
  postReposPullsReopen: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/pulls/{number}/reopen' },
  postReposPullsComments: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/pulls/{number}/comments' },
  getReposPullsCommits: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/pulls/{number}/commits' },
  getReposPullsFiles: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/pulls/{number}/files' },
  getReposPullsReview: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/pulls/{number}/review' },
  postReposPullsReviewComments: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/repos/{name}/pulls/{number}/review/comments',
  },
  postReposPullsApproval: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/pulls/{number}/approval' },
  postReposPullsMerge: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/pulls/{number}/merge' },
  postReposCommitsChecks: { method: 'POST', path: '/v1/orgs/{orgId}/repos/{name}/commits/{sha}/checks' },
  getReposCommitsChecks: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/commits/{sha}/checks' },
  patchReposCommitsChecksByCheckId: {
    method: 'PATCH',
    path: '/v1/orgs/{orgId}/repos/{name}/commits/{sha}/checks/{checkId}',
  },
  getReposPullsChecks: { method: 'GET', path: '/v1/orgs/{orgId}/repos/{name}/pulls/{number}/checks' },
  getAgents: { method: 'GET', path: '/v1/orgs/{orgId}/agents' },
  postAgentsJobs: { method: 'POST', path: '/v1/orgs/{orgId}/agents/jobs' },
  getAgentsJobsByJobId: { method: 'GET', path: '/v1/orgs/{orgId}/agents/jobs/{jobId}' },
  postAgentsJobsCancel: { method: 'POST', path: '/v1/orgs/{orgId}/agents/jobs/{jobId}/cancel' },
  postAgentsJobsRequestAccess: { method: 'POST', path: '/v1/orgs/{orgId}/agents/jobs/{jobId}/request-access' },
  postAgentsLogin: { method: 'POST', path: '/v1/orgs/{orgId}/agents/login' },
  patchAgentsDevicesByDeviceId: { method: 'PATCH', path: '/v1/orgs/{orgId}/agents/devices/{deviceId}' },
  deleteAgentsDevicesByDeviceId: { method: 'DELETE', path: '/v1/orgs/{orgId}/agents/devices/{deviceId}' },
  postAgentsRequestsByDeviceIdAndHostAndDecision: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/agents/requests/{deviceId}/{host}/{decision}',
  },
  postAgentPoll: { method: 'POST', path: '/v1/agent/poll' },
  postAgentJobsHeartbeat: { method: 'POST', path: '/v1/agent/jobs/{jobId}/heartbeat' },
  postAgentJobsComplete: { method: 'POST', path: '/v1/agent/jobs/{jobId}/complete' },
  postAgentJobsUploadUrl: { method: 'POST', path: '/v1/agent/jobs/{jobId}/upload-url' },
  postAgentLogin: { method: 'POST', path: '/v1/agent/login' },
  postAgentLoginToken: { method: 'POST', path: '/v1/agent/login/token' },
  postAgentNetworkRequests: { method: 'POST', path: '/v1/agent/network-requests' },
  getConnectors: { method: 'GET', path: '/v1/orgs/{orgId}/connectors' },
  postConnectors: { method: 'POST', path: '/v1/orgs/{orgId}/connectors' },
  getConnectorsByConnectorId: { method: 'GET', path: '/v1/orgs/{orgId}/connectors/{connectorId}' },
  patchConnectorsByConnectorId: { method: 'PATCH', path: '/v1/orgs/{orgId}/connectors/{connectorId}' },
  deleteConnectorsByConnectorId: { method: 'DELETE', path: '/v1/orgs/{orgId}/connectors/{connectorId}' },
  postConnectorsTest: { method: 'POST', path: '/v1/orgs/{orgId}/connectors/{connectorId}/test' },
  postConnectorsOauthStart: { method: 'POST', path: '/v1/orgs/{orgId}/connectors/{connectorId}/oauth/start' },
  postConnectorsOauthCallback: { method: 'POST', path: '/v1/orgs/{orgId}/connectors/oauth/callback' },
  getProjectsOauthClients: { method: 'GET', path: '/v1/orgs/{orgId}/projects/{projectId}/oauth-clients' },
  postProjectsOauthClients: { method: 'POST', path: '/v1/orgs/{orgId}/projects/{projectId}/oauth-clients' },
  patchProjectsOauthClientsByClientId: {
    method: 'PATCH',
    path: '/v1/orgs/{orgId}/projects/{projectId}/oauth-clients/{clientId}',
  },
  deleteProjectsOauthClientsByClientId: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/projects/{projectId}/oauth-clients/{clientId}',
  },
  postProjectsOauthClientsSecret: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/projects/{projectId}/oauth-clients/{clientId}/secret',
  },
  getWebhooks: { method: 'GET', path: '/v1/orgs/{orgId}/webhooks' },
  postWebhooks: { method: 'POST', path: '/v1/orgs/{orgId}/webhooks' },
  getWebhooksByEndpointId: { method: 'GET', path: '/v1/orgs/{orgId}/webhooks/{endpointId}' },
  patchWebhooksByEndpointId: { method: 'PATCH', path: '/v1/orgs/{orgId}/webhooks/{endpointId}' },
  deleteWebhooksByEndpointId: { method: 'DELETE', path: '/v1/orgs/{orgId}/webhooks/{endpointId}' },
  postWebhooksSecret: { method: 'POST', path: '/v1/orgs/{orgId}/webhooks/{endpointId}/secret' },
  getWebhooksDeliveries: { method: 'GET', path: '/v1/orgs/{orgId}/webhooks/{endpointId}/deliveries' },
  getWebhooksDeliveriesByDeliveryId: {
    method: 'GET',
    path: '/v1/orgs/{orgId}/webhooks/{endpointId}/deliveries/{deliveryId}',
  },
  postWebhooksDeliveriesRedeliver: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/webhooks/{endpointId}/deliveries/{deliveryId}/redeliver',
  },
  getMeNotifications: { method: 'GET', path: '/v1/me/notifications' },
  postMeNotificationsRead: { method: 'POST', path: '/v1/me/notifications/read' },
  postMeNotificationsAck: { method: 'POST', path: '/v1/me/notifications/{noticeId}/ack' },
  getMeNotificationsSettings: { method: 'GET', path: '/v1/me/notifications/settings' },
  putMeNotificationsSettings: { method: 'PUT', path: '/v1/me/notifications/settings' },
  getNotifyProtocolsTemplates: { method: 'GET', path: '/v1/orgs/{orgId}/notify/protocols/templates' },
  getNotifyProtocols: { method: 'GET', path: '/v1/orgs/{orgId}/notify/protocols' },
  postNotifyProtocols: { method: 'POST', path: '/v1/orgs/{orgId}/notify/protocols' },
  getNotifyProtocolsByProtocolId: { method: 'GET', path: '/v1/orgs/{orgId}/notify/protocols/{protocolId}' },
  putNotifyProtocolsByProtocolId: { method: 'PUT', path: '/v1/orgs/{orgId}/notify/protocols/{protocolId}' },
  deleteNotifyProtocolsByProtocolId: { method: 'DELETE', path: '/v1/orgs/{orgId}/notify/protocols/{protocolId}' },
  postNotifyProtocolsAttachments: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/notify/protocols/{protocolId}/attachments',
  },
  deleteNotifyProtocolsAttachmentsByResourceTypeAndTargetId: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/notify/protocols/{protocolId}/attachments/{resourceType}/{targetId}',
  },
  getDomains: { method: 'GET', path: '/v1/orgs/{orgId}/domains' },
  postDomains: { method: 'POST', path: '/v1/orgs/{orgId}/domains' },
  postDomainsVerify: { method: 'POST', path: '/v1/orgs/{orgId}/domains/{hostname}/verify' },
  postDomainsDnsProvider: { method: 'POST', path: '/v1/orgs/{orgId}/domains/{hostname}/dns-provider' },
  patchDomainsByHostname: { method: 'PATCH', path: '/v1/orgs/{orgId}/domains/{hostname}' },
  deleteDomainsByHostname: { method: 'DELETE', path: '/v1/orgs/{orgId}/domains/{hostname}' },
  getIntegrationsDnsProvider: { method: 'GET', path: '/v1/orgs/{orgId}/integrations/dns-provider' },
  putIntegrationsDnsProvider: { method: 'PUT', path: '/v1/orgs/{orgId}/integrations/dns-provider' },
  deleteIntegrationsDnsProvider: { method: 'DELETE', path: '/v1/orgs/{orgId}/integrations/dns-provider' },
  postIntegrationsDnsProviderAuthorize: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/integrations/dns-provider/authorize',
  },
  postIntegrationsDnsProviderOauth: { method: 'POST', path: '/v1/orgs/{orgId}/integrations/dns-provider/oauth' },
  getPages: { method: 'GET', path: '/v1/orgs/{orgId}/pages' },
  postPages: { method: 'POST', path: '/v1/orgs/{orgId}/pages' },
  getPagesSearch: { method: 'GET', path: '/v1/orgs/{orgId}/pages/search' },
  getPagesByPageId: { method: 'GET', path: '/v1/orgs/{orgId}/pages/{pageId}' },
  patchPagesByPageId: { method: 'PATCH', path: '/v1/orgs/{orgId}/pages/{pageId}' },
  deletePagesByPageId: { method: 'DELETE', path: '/v1/orgs/{orgId}/pages/{pageId}' },
  putPagesContent: { method: 'PUT', path: '/v1/orgs/{orgId}/pages/{pageId}/content' },
  getFavorites: { method: 'GET', path: '/v1/orgs/{orgId}/favorites' },
  putFavoritesByPageId: { method: 'PUT', path: '/v1/orgs/{orgId}/favorites/{pageId}' },
  deleteFavoritesByPageId: { method: 'DELETE', path: '/v1/orgs/{orgId}/favorites/{pageId}' },
  getPagesVersions: { method: 'GET', path: '/v1/orgs/{orgId}/pages/{pageId}/versions' },
  getPagesVersionsByN: { method: 'GET', path: '/v1/orgs/{orgId}/pages/{pageId}/versions/{n}' },
  postPagesVersionsRestore: { method: 'POST', path: '/v1/orgs/{orgId}/pages/{pageId}/versions/{n}/restore' },
  getAudit: { method: 'GET', path: '/v1/orgs/{orgId}/audit' },
  getAnalytics: { method: 'GET', path: '/v1/orgs/{orgId}/analytics' },
  getMailDomains: { method: 'GET', path: '/v1/orgs/{orgId}/mail/domains' },
  postMailDomains: { method: 'POST', path: '/v1/orgs/{orgId}/mail/domains' },
  postMailDomainsVerify: { method: 'POST', path: '/v1/orgs/{orgId}/mail/domains/{domain}/verify' },
  patchMailDomainsByDomain: { method: 'PATCH', path: '/v1/orgs/{orgId}/mail/domains/{domain}' },
  deleteMailDomainsByDomain: { method: 'DELETE', path: '/v1/orgs/{orgId}/mail/domains/{domain}' },
  getMailMembers: { method: 'GET', path: '/v1/orgs/{orgId}/mail/members' },
  getMailAdminMailboxes: { method: 'GET', path: '/v1/orgs/{orgId}/mail/admin/mailboxes' },
  postMailAdminMailboxes: { method: 'POST', path: '/v1/orgs/{orgId}/mail/admin/mailboxes' },
  patchMailAdminMailboxesByMailboxId: { method: 'PATCH', path: '/v1/orgs/{orgId}/mail/admin/mailboxes/{mailboxId}' },
  deleteMailAdminMailboxesByMailboxId: { method: 'DELETE', path: '/v1/orgs/{orgId}/mail/admin/mailboxes/{mailboxId}' },
  postMailAdminMailboxesAliases: { method: 'POST', path: '/v1/orgs/{orgId}/mail/admin/mailboxes/{mailboxId}/aliases' },
  deleteMailAdminAliasesByAddress: { method: 'DELETE', path: '/v1/orgs/{orgId}/mail/admin/aliases/{address}' },
  getMailUsage: { method: 'GET', path: '/v1/orgs/{orgId}/mail/usage' },
  getMailMailboxes: { method: 'GET', path: '/v1/orgs/{orgId}/mail/mailboxes' },
  getMailMailboxesLimits: { method: 'GET', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/limits' },
  patchMailMailboxesSettings: { method: 'PATCH', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/settings' },
  getMailMailboxesLabels: { method: 'GET', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/labels' },
  postMailMailboxesLabels: { method: 'POST', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/labels' },
  deleteMailMailboxesLabelsByLabelId: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/labels/{labelId}',
  },
  getMailMailboxesThreads: { method: 'GET', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/threads' },
  postMailMailboxesThreadsActions: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/threads/actions',
  },
  getMailMailboxesThreadsByThreadId: {
    method: 'GET',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/threads/{threadId}',
  },
  getMailMailboxesThreadsMessagesBody: {
    method: 'GET',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/threads/{threadId}/messages/{messageId}/body',
  },
  getMailMailboxesMessagesAttachmentsByIndex: {
    method: 'GET',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/messages/{messageId}/attachments/{index}',
  },
  getMailMailboxesMessagesRaw: {
    method: 'GET',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/messages/{messageId}/raw',
  },
  postMailMailboxesSend: { method: 'POST', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/send' },
  postMailMailboxesUploads: { method: 'POST', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/uploads' },
  postMailMailboxesRecipientsCheck: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/recipients/check',
  },
  postMailMailboxesDrafts: { method: 'POST', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/drafts' },
  getMailMailboxesDrafts: { method: 'GET', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/drafts' },
  getMailMailboxesDraftsByDraftId: {
    method: 'GET',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/drafts/{draftId}',
  },
  putMailMailboxesDraftsByDraftId: {
    method: 'PUT',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/drafts/{draftId}',
  },
  deleteMailMailboxesDraftsByDraftId: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/drafts/{draftId}',
  },
  getPlatformAnalytics: { method: 'GET', path: '/v1/platform/analytics' },
  getPlatformAudit: { method: 'GET', path: '/v1/platform/audit' },
  getPlatformStats: { method: 'GET', path: '/v1/platform/stats' },
  getPlatformOrgs: { method: 'GET', path: '/v1/platform/orgs' },
  patchPlatformOrgsByOrgId: { method: 'PATCH', path: '/v1/platform/orgs/{orgId}' },
  getPlatformMailUsage: { method: 'GET', path: '/v1/platform/mail/usage' },
  getPlatformRegions: { method: 'GET', path: '/v1/platform/regions' },
  putPlatformRegionsByRegionId: { method: 'PUT', path: '/v1/platform/regions/{regionId}' },
  putPlatformLocationsByLocationId: { method: 'PUT', path: '/v1/platform/locations/{locationId}' },
  getPlatformPlans: { method: 'GET', path: '/v1/platform/plans' },
  putPlatformPlansByPlanId: { method: 'PUT', path: '/v1/platform/plans/{planId}' },
  getPlatformModels: { method: 'GET', path: '/v1/platform/models' },
  putPlatformModelsByModelId: { method: 'PUT', path: '/v1/platform/models/{modelId}' },
  getMailMailboxesAddressBooks: { method: 'GET', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/address-books' },
  postMailMailboxesAddressBooks: { method: 'POST', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/address-books' },
  patchMailMailboxesAddressBooksByAddressBookId: {
    method: 'PATCH',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/address-books/{addressBookId}',
  },
  deleteMailMailboxesAddressBooksByAddressBookId: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/address-books/{addressBookId}',
  },
  getMailMailboxesContacts: { method: 'GET', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/contacts' },
  postMailMailboxesAddressBooksContacts: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/address-books/{addressBookId}/contacts',
  },
  getMailMailboxesAddressBooksContactsByContactId: {
    method: 'GET',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/address-books/{addressBookId}/contacts/{contactId}',
  },
  putMailMailboxesAddressBooksContactsByContactId: {
    method: 'PUT',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/address-books/{addressBookId}/contacts/{contactId}',
  },
  deleteMailMailboxesAddressBooksContactsByContactId: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/address-books/{addressBookId}/contacts/{contactId}',
  },
  getMailMailboxesContactsPhoto: {
    method: 'GET',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/contacts/{contactId}/photo',
  },
  putMailMailboxesContactsPhoto: {
    method: 'PUT',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/contacts/{contactId}/photo',
  },
  deleteMailMailboxesContactsPhoto: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/contacts/{contactId}/photo',
  },
  postMailMailboxesAddressBooksImport: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/address-books/{addressBookId}/import',
  },
  getMailMailboxesAddressBooksExport: {
    method: 'GET',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/address-books/{addressBookId}/export',
  },
  getMailMailboxesCalendars: { method: 'GET', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars' },
  postMailMailboxesCalendars: { method: 'POST', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars' },
  patchMailMailboxesCalendarsByCalendarId: {
    method: 'PATCH',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars/{calendarId}',
  },
  deleteMailMailboxesCalendarsByCalendarId: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars/{calendarId}',
  },
  getMailMailboxesEvents: { method: 'GET', path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/events' },
  postMailMailboxesCalendarsEvents: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars/{calendarId}/events',
  },
  getMailMailboxesCalendarsEventsByEventId: {
    method: 'GET',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars/{calendarId}/events/{eventId}',
  },
  putMailMailboxesCalendarsEventsByEventId: {
    method: 'PUT',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars/{calendarId}/events/{eventId}',
  },
  deleteMailMailboxesCalendarsEventsByEventId: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars/{calendarId}/events/{eventId}',
  },
  postMailMailboxesCalendarsEventsRespond: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars/{calendarId}/events/{eventId}/respond',
  },
  postMailMailboxesCalendarsImport: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars/{calendarId}/import',
  },
  getMailMailboxesCalendarsExport: {
    method: 'GET',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars/{calendarId}/export',
  },
  getMailMailboxesCalendarsFeed: {
    method: 'GET',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars/{calendarId}/feed',
  },
  postMailMailboxesCalendarsFeed: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars/{calendarId}/feed',
  },
  deleteMailMailboxesCalendarsFeed: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars/{calendarId}/feed',
  },
  postMailMailboxesCalendarsFeedRotate: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/mail/mailboxes/{mailboxId}/calendars/{calendarId}/feed/rotate',
  },
  getFeedsByFile: { method: 'GET', path: '/feeds/{file}' },
  getIssuesSpaces: { method: 'GET', path: '/v1/orgs/{orgId}/issues/spaces' },
  postIssuesSpaces: { method: 'POST', path: '/v1/orgs/{orgId}/issues/spaces' },
  getIssuesSpacesBySpaceKey: { method: 'GET', path: '/v1/orgs/{orgId}/issues/spaces/{spaceKey}' },
  patchIssuesSpacesBySpaceKey: { method: 'PATCH', path: '/v1/orgs/{orgId}/issues/spaces/{spaceKey}' },
  getIssuesBoards: { method: 'GET', path: '/v1/orgs/{orgId}/issues/boards' },
  postIssuesBoards: { method: 'POST', path: '/v1/orgs/{orgId}/issues/boards' },
  getIssuesBoardsByBoardId: { method: 'GET', path: '/v1/orgs/{orgId}/issues/boards/{boardId}' },
  patchIssuesBoardsByBoardId: { method: 'PATCH', path: '/v1/orgs/{orgId}/issues/boards/{boardId}' },
  deleteIssuesBoardsByBoardId: { method: 'DELETE', path: '/v1/orgs/{orgId}/issues/boards/{boardId}' },
  getIssuesBoardsIssues: { method: 'GET', path: '/v1/orgs/{orgId}/issues/boards/{boardId}/issues' },
  getIssuesBoardsBacklog: { method: 'GET', path: '/v1/orgs/{orgId}/issues/boards/{boardId}/backlog' },
  postIssuesBoardsMove: { method: 'POST', path: '/v1/orgs/{orgId}/issues/boards/{boardId}/move' },
  getIssuesBoardsSprints: { method: 'GET', path: '/v1/orgs/{orgId}/issues/boards/{boardId}/sprints' },
  postIssuesBoardsSprints: { method: 'POST', path: '/v1/orgs/{orgId}/issues/boards/{boardId}/sprints' },
  getIssuesBoardsVelocity: { method: 'GET', path: '/v1/orgs/{orgId}/issues/boards/{boardId}/velocity' },
  getIssuesSprintsBySprintId: { method: 'GET', path: '/v1/orgs/{orgId}/issues/sprints/{sprintId}' },
  patchIssuesSprintsBySprintId: { method: 'PATCH', path: '/v1/orgs/{orgId}/issues/sprints/{sprintId}' },
  deleteIssuesSprintsBySprintId: { method: 'DELETE', path: '/v1/orgs/{orgId}/issues/sprints/{sprintId}' },
  getIssuesExport: { method: 'GET', path: '/v1/orgs/{orgId}/issues/export' },
  postIssuesImport: { method: 'POST', path: '/v1/orgs/{orgId}/issues/import' },
  postIssuesImportUpload: { method: 'POST', path: '/v1/orgs/{orgId}/issues/import/upload' },
  getIssues: { method: 'GET', path: '/v1/orgs/{orgId}/issues' },
  postIssues: { method: 'POST', path: '/v1/orgs/{orgId}/issues' },
  postIssuesSearch: { method: 'POST', path: '/v1/orgs/{orgId}/issues/search' },
  postIssuesRank: { method: 'POST', path: '/v1/orgs/{orgId}/issues/rank' },
  postIssuesBulk: { method: 'POST', path: '/v1/orgs/{orgId}/issues/bulk' },
  getIssuesLabels: { method: 'GET', path: '/v1/orgs/{orgId}/issues/labels' },
  getIssuesByIssueKey: { method: 'GET', path: '/v1/orgs/{orgId}/issues/{issueKey}' },
  putIssuesByIssueKey: { method: 'PUT', path: '/v1/orgs/{orgId}/issues/{issueKey}' },
  getIssuesComments: { method: 'GET', path: '/v1/orgs/{orgId}/issues/{issueKey}/comments' },
  postIssuesComments: { method: 'POST', path: '/v1/orgs/{orgId}/issues/{issueKey}/comments' },
  patchIssuesCommentsByCommentId: { method: 'PATCH', path: '/v1/orgs/{orgId}/issues/{issueKey}/comments/{commentId}' },
  deleteIssuesCommentsByCommentId: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/issues/{issueKey}/comments/{commentId}',
  },
  getIssuesWorklogs: { method: 'GET', path: '/v1/orgs/{orgId}/issues/{issueKey}/worklogs' },
  postIssuesWorklogs: { method: 'POST', path: '/v1/orgs/{orgId}/issues/{issueKey}/worklogs' },
  postIssuesLinks: { method: 'POST', path: '/v1/orgs/{orgId}/issues/{issueKey}/links' },
  deleteIssuesLinksByLinkId: { method: 'DELETE', path: '/v1/orgs/{orgId}/issues/{issueKey}/links/{linkId}' },
  postIssuesAttachments: { method: 'POST', path: '/v1/orgs/{orgId}/issues/{issueKey}/attachments' },
  postIssuesAttachmentsComplete: {
    method: 'POST',
    path: '/v1/orgs/{orgId}/issues/{issueKey}/attachments/{attachmentId}/complete',
  },
  getIssuesAttachmentsByAttachmentId: {
    method: 'GET',
    path: '/v1/orgs/{orgId}/issues/{issueKey}/attachments/{attachmentId}',
  },
  deleteIssuesAttachmentsByAttachmentId: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/issues/{issueKey}/attachments/{attachmentId}',
  },
  getIssuesTransitions: { method: 'GET', path: '/v1/orgs/{orgId}/issues/{issueKey}/transitions' },
  postIssuesTransitions: { method: 'POST', path: '/v1/orgs/{orgId}/issues/{issueKey}/transitions' },
  postIssuesSpacesVersions: { method: 'POST', path: '/v1/orgs/{orgId}/issues/spaces/{spaceKey}/versions' },
  patchIssuesSpacesVersionsByVersionId: {
    method: 'PATCH',
    path: '/v1/orgs/{orgId}/issues/spaces/{spaceKey}/versions/{versionId}',
  },
  deleteIssuesSpacesVersionsByVersionId: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/issues/spaces/{spaceKey}/versions/{versionId}',
  },
  postIssuesSpacesComponents: { method: 'POST', path: '/v1/orgs/{orgId}/issues/spaces/{spaceKey}/components' },
  patchIssuesSpacesComponentsByComponentId: {
    method: 'PATCH',
    path: '/v1/orgs/{orgId}/issues/spaces/{spaceKey}/components/{componentId}',
  },
  deleteIssuesSpacesComponentsByComponentId: {
    method: 'DELETE',
    path: '/v1/orgs/{orgId}/issues/spaces/{spaceKey}/components/{componentId}',
  },
};
