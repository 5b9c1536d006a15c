// Generated from the route table by scripts/openapi.ts (npx tsx scripts/openapi.ts). Do not edit.

/** Each operation of the API: path parameters, query, body and, where the route declares it, its response. */
export interface Operations {
  /** Liveness: answers without a token */
  getHealth: {
    params: object;
    query: object;
    body: undefined;
    response: unknown;
  };
  /** The caller: kind, id, email and name where known, organizations with role and kind, scopes */
  getMe: {
    params: object;
    query: object;
    body: undefined;
    response: unknown;
  };
  /** The locations projects and resources can be placed in, with the default marked */
  getLocations: {
    params: object;
    query: object;
    body: undefined;
    response: unknown;
  };
  /** The organization */
  getOrgsByOrgId: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
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
    response: unknown;
  };
  /** Deletes an empty customer organization with its members, teams, invites and keys */
  deleteOrgsByOrgId: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
  };
  /** What must be removed before the organization can be deleted */
  getContents: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
  };
  /** Members and teams */
  getMembers: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
  };
  /** The databases, oldest first, each with a summary of its table, or `table: null` with `error` `missing` (no table) or `unavailable` (the table store did not answer) */
  getDatabases: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
  };
  /** The database and its table description */
  getDatabasesByResourceId: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
  };
  /** Deletes the database and its table (the same deletion as DELETE .../resources/database/:resourceId) */
  deleteDatabasesByResourceId: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
  };
  /** Items and bytes of the table and its indexes, and provisioned capacity, as DynamoDB describes them */
  getDatabasesMetrics: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
  };
  /** Deletion protection, point-in-time recovery, time to live, table class, billing mode and capacity, tags */
  getDatabasesSettings: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
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
    response: unknown;
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
    response: unknown;
  };
  /** The organization's buckets, each with its latest daily usage (null until measured) */
  getStorage: {
    params: {
      orgId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
  };
  /** A bucket with its versioning status (null when unknown) and latest daily usage */
  getStorageByResourceId: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
  };
  /** Deletes a bucket without files, its old file versions (in batches: 409 `Still removing …` means call again) and its record */
  deleteStorageByResourceId: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
  };
  /** Versioning, the customer's CORS rules, the platform's upload rule, lifecycle rules, public access */
  getStorageSettings: {
    params: {
      orgId: string;
      resourceId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
  };
  /** The project with its 10 most recent deployments, production deployment and host, repository, domains and function configuration */
  getProjectsByProjectId: {
    params: {
      orgId: string;
      projectId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
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
      location?: string;
      ifVersion?: number;
    };
    response: unknown;
  };
  /** Deletes the project with its domains, crons, server functions, routes, deployment records and variables */
  deleteProjectsByProjectId: {
    params: {
      orgId: string;
      projectId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
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
    response: unknown;
  };
  /** The variables, sorted by key */
  getProjectsEnv: {
    params: {
      orgId: string;
      projectId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
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
    response: unknown;
  };
  /** The deployment with its project's summary, production host, domains and server function */
  getDeploymentsByDeploymentId: {
    params: {
      orgId: string;
      deploymentId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
  };
  /** The build output from the first step (up to 5,000 lines) */
  getDeploymentsLogs: {
    params: {
      orgId: string;
      deploymentId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
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
    response: unknown;
  };
  /** Builds the same source again as a new deployment of the same target */
  postDeploymentsRedeploy: {
    params: {
      orgId: string;
      deploymentId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
  };
  /** Makes a ready deployment the production deployment, without a rebuild */
  postDeploymentsPromote: {
    params: {
      orgId: string;
      deploymentId: string;
    };
    query: object;
    body: undefined;
    response: unknown;
  };
}

export type OperationId = keyof Operations;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Method and path of each operation: path parameters in `{name}` form, everything else is the query. */
export const operations: Record<OperationId, { method: HttpMethod; path: string }> = {
  getHealth: { method: 'GET', path: '/health' },
  getMe: { method: 'GET', path: '/v1/me' },
  getLocations: { method: 'GET', path: '/v1/locations' },
  getOrgsByOrgId: { method: 'GET', path: '/v1/orgs/{orgId}' },
  patchOrgsByOrgId: { method: 'PATCH', path: '/v1/orgs/{orgId}' },
  deleteOrgsByOrgId: { method: 'DELETE', path: '/v1/orgs/{orgId}' },
  getContents: { method: 'GET', path: '/v1/orgs/{orgId}/contents' },
  getMembers: { method: 'GET', path: '/v1/orgs/{orgId}/members' },
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
};
