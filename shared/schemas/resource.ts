/** Spec part A, "Resource record (repository, database or bucket)" (+ `version`). */
export const RESOURCE_TYPES = ['repository', 'database', 'bucket'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export interface Resource {
  resourceId: string;
  type: ResourceType;
  name: string;
  status?: 'error' | 'active' | 'creating' | 'deleting';
  /** Why provisioning failed, when `status` is `error`. */
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
  /** The backing table's or bucket's name: unique across the platform. */
  physicalName: string;
  version: number;
}

/** The resource as the API answers it. */
export function toResource(r: Resource) {
  const { version: _v, ...rest } = r;
  return {
    resourceId: rest.resourceId,
    type: rest.type,
    name: rest.name,
    status: rest.status,
    error: rest.error,
    description: rest.description,
    createdAt: rest.createdAt,
    updatedAt: rest.updatedAt,
    region: rest.region,
    orgId: rest.orgId,
    createdBy: rest.createdBy,
    projectId: rest.projectId,
    location: rest.location,
    arn: rest.arn,
    physicalName: rest.physicalName,
  };
}
