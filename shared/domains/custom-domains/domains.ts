import type { Caller } from '../../kernel/auth/caller';
import { conflict, DomainError, notFound } from '../../kernel/ground/errors';
import { describeError, log } from '../../kernel/ground/log';
import { decodeCursor, encodeCursor } from '../../kernel/store/cursor';
import { queryPages, transact, updateVersioned } from '../../kernel/store/ops';
import { keys, putNew, versionedUpdate } from '../../kernel/store/table';
import { ProviderRefused } from '../../ports/dns/port';
import { getHost, HOST_IN_USE, hostIsFree, hostToProject } from '../host-registry/registry';
import { toDomain } from '../projects/domain-view';
import {
  actorId,
  assertActive,
  DOMAIN_PREFIX,
  isId,
  PROJECT_NOT_FOUND,
  projectIsActive,
  requireProject,
} from '../projects/records';
import { queueCheck, verifyDomain } from './checks';
import { normalizeHostname, zoneOf } from './hostnames';
import { connectedProvider, getProviderRecord } from './provider';
import {
  CHECK_EVERY_MS,
  CHECK_FOR_MS,
  claimIndex,
  DOMAIN_MESSAGES,
  type DomainRecord,
  domainKey,
  domainsOfProject,
  getDomainRecord,
  MAX_PER_PROJECT,
  newToken,
  recordsOf,
  recordsText,
  removeDomain,
} from './records';

export { toDomain };

export const PROVIDER_FAILED = "The DNS provider refused the change. Check the provider's access and try again.";

export async function requireDomain(orgId: string, hostname: string, consistent = true): Promise<DomainRecord> {
  let name: string;
  try {
    name = normalizeHostname(hostname);
  } catch {
    throw notFound(DOMAIN_MESSAGES.notFound);
  }
  const d = await getDomainRecord(orgId, name, consistent);
  if (!d) throw notFound(DOMAIN_MESSAGES.notFound);
  return d;
}

/** A page of the organization's domains by hostname, of one project when `projectId` is given. */
export async function listDomains(orgId: string, query: { projectId?: string; cursor?: string; limit: number }) {
  const scope = `${orgId}:domains:${query.projectId ?? ''}`;
  const start = decodeCursor(scope, query.cursor);
  const found: DomainRecord[] = [];
  let next: Record<string, unknown> | undefined;
  const pages = queryPages<DomainRecord>(
    () => ({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ...(query.projectId ? { FilterExpression: 'projectId = :project' } : {}),
      ExpressionAttributeValues: {
        ':pk': keys.org(orgId).pk,
        ':p': DOMAIN_PREFIX,
        ...(query.projectId ? { ':project': query.projectId } : {}),
      },
      Limit: query.limit - found.length,
    }),
    start,
  );
  for await (const page of pages) {
    found.push(...page.items);
    next = page.next;
    if (found.length >= query.limit) break;
  }
  return { domains: found.map(toDomain), cursor: encodeCursor(scope, next) };
}

/**
 * A redirect names another domain of the same project that redirects nowhere itself, and a domain
 * others redirect to does not redirect (no chains, no loops).
 */
function checkRedirect(hostname: string, redirectTo: string, siblings: DomainRecord[]): string {
  let target: string;
  try {
    target = normalizeHostname(redirectTo);
  } catch {
    throw conflict(DOMAIN_MESSAGES.redirectUnknown);
  }
  const to = siblings.find((s) => s.hostname === target);
  if (!to || target === hostname) throw conflict(DOMAIN_MESSAGES.redirectUnknown);
  if (to.redirectTo || siblings.some((s) => s.redirectTo === hostname)) throw conflict(DOMAIN_MESSAGES.redirectChain);
  return target;
}

/**
 * Adds a domain, `pending` with the records to create: a claim of this organization, which takes
 * nothing from others (the host is reserved when ownership is proven, shared/domains/checks.ts).
 * One transaction: the project is active, the record is new in the organization, no organization
 * has verified the host yet (409 `<host> is already in use.`). The first re-check is queued.
 */
export async function addDomain(
  orgId: string,
  caller: Caller,
  body: { hostname: string; projectId: string; redirectTo?: string },
): Promise<DomainRecord> {
  const hostname = normalizeHostname(body.hostname);
  if (!isId('prj_', body.projectId)) throw notFound(PROJECT_NOT_FOUND);
  const project = await requireProject(orgId, body.projectId, true);
  assertActive(project);
  const siblings = await domainsOfProject(orgId, project.projectId);
  if (siblings.some((s) => s.hostname === hostname)) throw conflict(HOST_IN_USE(hostname));
  if (siblings.length >= MAX_PER_PROJECT) throw conflict(DOMAIN_MESSAGES.tooMany);
  const redirectTo = body.redirectTo === undefined ? undefined : checkRedirect(hostname, body.redirectTo, siblings);
  const zone = zoneOf(hostname);
  const provider = await getProviderRecord(orgId);
  const holds = provider && (provider.kind === 'local' || provider.zones.includes(zone));
  const now = Date.now();
  const token = newToken();
  const domain: DomainRecord = {
    ...domainKey(orgId, hostname),
    ...claimIndex(hostname),
    hostname,
    orgId,
    projectId: project.projectId,
    status: 'pending',
    message: 'Create the records, then verify.',
    createdAt: now,
    updatedAt: now,
    createdBy: actorId(caller),
    records: recordsText(recordsOf(hostname, zone, token)),
    zone,
    ...(holds ? { dnsProvider: provider.kind } : {}),
    ...(redirectTo ? { redirectTo } : {}),
    version: 1,
    token,
    checksUntil: now + CHECK_FOR_MS,
    nextCheckAt: now + CHECK_EVERY_MS,
  };
  await transact(
    [projectIsActive(orgId, project.projectId), putNew({ ...domain }), hostIsFree(hostname)],
    [() => notFound(PROJECT_NOT_FOUND), HOST_IN_USE(hostname), HOST_IN_USE(hostname)],
  );
  // Without its first check the domain still verifies on request: a queue outage is logged, not the add's failure.
  await queueCheck(domain, domain.nextCheckAt as number, now).catch((err: unknown) =>
    log.warn('domain check not queued', { orgId, hostname, error: describeError(err) }),
  );
  return domain;
}

export function verify(orgId: string, hostname: string) {
  return requireDomain(orgId, hostname).then((d) => verifyDomain(d));
}

/** Writes the domain's records through the organization's connected provider. */
export async function writeRecords(orgId: string, hostname: string): Promise<DomainRecord> {
  const d = await requireDomain(orgId, hostname);
  const connected = await connectedProvider(orgId);
  if (!connected) throw conflict(DOMAIN_MESSAGES.connectFirst);
  const records = recordsOf(d.hostname, d.zone, d.token);
  try {
    if (!(await connected.provider.holdsZone(d.zone))) throw conflict(DOMAIN_MESSAGES.providerLacksZone(d.zone));
    await connected.provider.upsert(d.zone, records);
  } catch (err) {
    if (!(err instanceof ProviderRefused)) throw err;
    log.warn('dns provider refused', { orgId, hostname: d.hostname, error: describeError(err) });
    throw new DomainError('backend', PROVIDER_FAILED);
  }
  return updateVersioned<DomainRecord>(
    domainKey(orgId, d.hostname),
    undefined,
    {
      dnsProvider: connected.record.kind,
      written: { kind: connected.record.kind, zone: d.zone, records },
      message: 'Records written through the DNS provider: verify once they are visible.',
      updatedAt: Date.now(),
    },
    DOMAIN_MESSAGES.changed,
  );
}

/**
 * Moves the domain to another project of the organization (its redirect dropped unless given
 * anew; the registry item follows in the same transaction) or sets or removes `redirectTo`.
 */
export async function patchDomain(
  orgId: string,
  hostname: string,
  body: { projectId?: string; redirectTo?: string | null; ifVersion?: number },
): Promise<DomainRecord> {
  const d = await requireDomain(orgId, hostname);
  if (body.ifVersion !== undefined && body.ifVersion !== d.version) throw conflict(DOMAIN_MESSAGES.changed);
  const moving = body.projectId !== undefined && body.projectId !== d.projectId;
  const projectId = body.projectId ?? d.projectId;
  if (moving) {
    if (!isId('prj_', projectId)) throw notFound(PROJECT_NOT_FOUND);
    assertActive(await requireProject(orgId, projectId, true));
  }
  const [ofTarget, holder] = await Promise.all([domainsOfProject(orgId, projectId), getHost(d.hostname, true)]);
  const siblings = ofTarget.filter((s) => s.hostname !== d.hostname);
  if (moving && siblings.length >= MAX_PER_PROJECT) throw conflict(DOMAIN_MESSAGES.tooMany);
  const others = await domainsOfProject(orgId, d.projectId);
  if (moving && others.some((s) => s.redirectTo === d.hostname)) throw conflict(DOMAIN_MESSAGES.redirectedTo);
  let redirectTo: string | undefined = moving ? undefined : d.redirectTo;
  if (body.redirectTo === null) redirectTo = undefined;
  else if (body.redirectTo !== undefined) redirectTo = checkRedirect(d.hostname, body.redirectTo, siblings);
  const fields = { projectId, redirectTo, updatedAt: Date.now() };
  const items: Parameters<typeof transact>[0] = [
    { Update: versionedUpdate(domainKey(orgId, d.hostname), d.version, fields) },
  ];
  const failures: (string | (() => Error) | undefined)[] = [DOMAIN_MESSAGES.changed];
  if (moving) {
    items.push(projectIsActive(orgId, projectId));
    failures.push(() => notFound(PROJECT_NOT_FOUND));
    // A verified domain's host follows it; a pending claim holds none.
    if (holder?.orgId === orgId && holder.projectId === d.projectId) {
      items.push(hostToProject(d.hostname, d.projectId, projectId));
      failures.push(DOMAIN_MESSAGES.changed);
    }
  }
  await transact(items, failures);
  const updated = { ...d, ...fields, version: d.version + 1 };
  if (redirectTo === undefined) delete updated.redirectTo;
  return updated;
}

/** Removes every domain of a project (its deletion, the hook the projects route hands in), each as removeDomain does. */
export async function removeProjectDomains(project: { orgId: string; projectId: string }): Promise<void> {
  for (const domain of await domainsOfProject(project.orgId, project.projectId)) await removeDomain(domain);
}

/** Deletes the domain: the records written for it, the record and its host (none redirect to it). */
export async function deleteDomain(orgId: string, hostname: string): Promise<void> {
  const d = await requireDomain(orgId, hostname);
  const siblings = await domainsOfProject(orgId, d.projectId);
  if (siblings.some((s) => s.redirectTo === d.hostname)) throw conflict(DOMAIN_MESSAGES.redirectedTo);
  await removeDomain(d);
}
