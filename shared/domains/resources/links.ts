import { getMany } from '../../kernel/store/table';
import { projectLinkKey, resourceKey } from './records';
import type { ResourceRecord } from './schema';

/**
 * The variables a project's deployments get from its linked resources (read when a deployment is
 * built, so linking and unlinking take effect at the project's next deployment). A project links
 * at most one database and one bucket, so the names are fixed:
 * `DATABASE_TABLE`, `DATABASE_REGION`, `BUCKET_NAME`, `BUCKET_REGION`.
 * Only resources that are `active` contribute.
 */
export async function linkedVariables(orgId: string, projectId: string): Promise<Record<string, string>> {
  const links = await getMany<{ resourceId: string }>([
    projectLinkKey(orgId, projectId, 'database'),
    projectLinkKey(orgId, projectId, 'bucket'),
  ]);
  const wanted = [
    links[0] && resourceKey(orgId, 'database', links[0].resourceId),
    links[1] && resourceKey(orgId, 'bucket', links[1].resourceId),
  ].filter((k) => k !== undefined);
  const found = await getMany<ResourceRecord>(wanted);
  const db = found.find((r) => r?.type === 'database');
  const bucket = found.find((r) => r?.type === 'bucket');
  const vars: Record<string, string> = {};
  if (db?.status === 'active' && db.projectId === projectId) {
    vars.DATABASE_TABLE = db.physicalName;
    vars.DATABASE_REGION = db.region;
  }
  if (bucket?.status === 'active' && bucket.projectId === projectId) {
    vars.BUCKET_NAME = bucket.physicalName;
    vars.BUCKET_REGION = bucket.region;
  }
  return vars;
}
