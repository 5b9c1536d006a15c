import { conflict, invalid } from '../../kernel/ground/errors';
import { transact } from '../../kernel/store/ops';
import { putNew, TABLE } from '../../kernel/store/table';
import { HostTaken, hostEntry, productionLabels, releaseHost, reserveHost } from '../host-registry/registry';
import { SLUG_TAKEN } from './create';
import { hostOfLabel, productionLabelOf } from './hosts';
import { checkLocation } from './location';
import { assertActive, projectKeys, requireProject } from './records';
import { REPO_NOT_FOUND, repoExists } from './related';
import { type Framework, type ProjectRecord, previewsOf } from './schema';

export const PROJECT_CHANGED = 'The project changed since it was read. Reload and try again.';

interface ProjectChanges {
  name?: string;
  slug?: string;
  framework?: Framework;
  repoId?: string | null;
  productionBranch?: string;
  rootDirectory?: string;
  buildCommand?: string | null;
  installCommand?: string | null;
  outputDirectory?: string | null;
  previews?: { enabled?: boolean; ignore?: string[] };
  location?: string;
  ifVersion?: number;
}

/** Fields a PATCH sets; `null` (or an empty command) removes the field. */
const FIELDS = [
  'name',
  'slug',
  'framework',
  'repoId',
  'productionBranch',
  'rootDirectory',
  'buildCommand',
  'installCommand',
  'outputDirectory',
  'previews',
  'location',
] as const;

/** Thrown inside the transaction's failure list: the project changed under us. */
class Stale extends Error {}

/**
 * Updates a project: one transaction with the version guard, the repository check when linking,
 * and the slug move (new slug record created, old one removed) when renaming. Without `ifVersion`
 * a concurrent change is merged over (re-read and applied again); with it, it is a 409.
 * Answers the project and whether a repository was linked by this change.
 */
export async function updateProject(
  org: { orgId: string; slug: string },
  projectId: string,
  changes: ProjectChanges,
): Promise<{ project: ProjectRecord; linked: boolean }> {
  const { orgId } = org;
  if (changes.location !== undefined) await checkLocation(changes.location);
  for (let attempt = 0; ; attempt++) {
    const current = await requireProject(orgId, projectId, true);
    assertActive(current);
    if (changes.ifVersion !== undefined && changes.ifVersion !== current.version) throw conflict(PROJECT_CHANGED);
    try {
      return await applyWithHost(current, changes, org.slug);
    } catch (err) {
      if (!(err instanceof Stale)) throw err;
      if (changes.ifVersion !== undefined || attempt >= 4) throw conflict(PROJECT_CHANGED);
    }
  }
}

/**
 * A new slug brings a new production host (its label reserved, the old one released, in the
 * update's transaction): the next label is tried when another project holds one.
 */
async function applyWithHost(current: ProjectRecord, changes: ProjectChanges, orgSlug: string) {
  const slug = changes.slug;
  if (slug === undefined || slug === current.slug) return apply(current, changes);
  for (const label of productionLabels(slug, orgSlug)) {
    try {
      return await apply(current, changes, label);
    } catch (err) {
      if (!(err instanceof HostTaken)) throw err;
    }
  }
  throw conflict(SLUG_TAKEN);
}

async function apply(current: ProjectRecord, changes: ProjectChanges, productionLabel?: string) {
  const { orgId, projectId } = current;
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  for (const field of FIELDS) {
    const value = normalize(field, changes[field]);
    if (value === undefined) continue;
    if (value === null) {
      if (current[field] !== undefined) remove.push(field);
    } else if (field === 'previews') {
      // The fields left out stay as they were.
      const next = { ...previewsOf(current), ...(value as ProjectChanges['previews']) };
      if (JSON.stringify(next) !== JSON.stringify(previewsOf(current))) set.previews = next;
    } else if (value !== current[field]) set[field] = value;
  }
  if (Object.keys(set).length === 0 && remove.length === 0) return { project: current, linked: false };
  const newHost = typeof set.slug === 'string' && productionLabel ? hostOfLabel(productionLabel) : undefined;
  if (newHost) set.productionLabel = productionLabel;

  set.updatedAt = Date.now();
  const names: Record<string, string> = { '#version': 'version', '#status': 'status' };
  const values: Record<string, unknown> = { ':one': 1, ':v': current.version, ':active': 'active' };
  const sets = ['#version = #version + :one'];
  Object.entries(set).forEach(([field, value], i) => {
    names[`#s${i}`] = field;
    values[`:s${i}`] = value;
    sets.push(`#s${i} = :s${i}`);
  });
  const removes = remove.map((field, i) => {
    names[`#r${i}`] = field;
    return `#r${i}`;
  });

  const linking = typeof set.repoId === 'string' ? repoExists(orgId, set.repoId) : undefined;
  const newSlug = typeof set.slug === 'string' ? set.slug : undefined;
  const items: unknown[] = [];
  const failures: (() => Error)[] = [];
  if (linking) {
    items.push(linking);
    failures.push(() => invalid(REPO_NOT_FOUND));
  }
  if (newSlug) {
    items.push(putNew({ ...projectKeys.slug(orgId, newSlug), projectId }));
    failures.push(() => conflict(SLUG_TAKEN));
    items.push({
      Delete: {
        TableName: TABLE(),
        Key: projectKeys.slug(orgId, current.slug),
        ConditionExpression: 'attribute_not_exists(pk) OR projectId = :id',
        ExpressionAttributeValues: { ':id': projectId },
      },
    });
    failures.push(() => new Stale());
  }
  if (newHost && productionLabel !== productionLabelOf(current)) {
    const oldHost = hostOfLabel(productionLabelOf(current));
    items.push(reserveHost(hostEntry(newHost, 'production', { orgId, projectId })));
    failures.push(() => new HostTaken(newHost));
    items.push(releaseHost(oldHost, projectId));
    failures.push(() => new Stale());
  }
  items.push({
    Update: {
      TableName: TABLE(),
      Key: projectKeys.project(orgId, projectId),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: 'attribute_exists(pk) AND #version = :v AND #status = :active',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  });
  failures.push(() => new Stale());

  await transact(items as Parameters<typeof transact>[0], failures);
  const project = { ...current, ...set, version: current.version + 1 } as ProjectRecord;
  for (const field of remove) delete (project as unknown as Record<string, unknown>)[field];
  return { project, linked: linking !== undefined };
}

function normalize(field: (typeof FIELDS)[number], value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (field === 'rootDirectory' && value === '') return '.';
  // An empty command or directory means "the framework's default": the field is removed.
  if ((field === 'buildCommand' || field === 'installCommand' || field === 'outputDirectory') && value === '') {
    return null;
  }
  return value;
}
