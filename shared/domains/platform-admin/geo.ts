import { locations as configured, defaultLocation } from '../../kernel/config';
import { conflict, type DomainError, invalid, notFound } from '../../kernel/ground/errors';
import { CATALOG, readCatalog } from '../../kernel/plans/catalog';
import { PLATFORM_ADMIN_MESSAGES } from '../../kernel/plans/messages';
import type { TransactWriteCommandInput } from '../../kernel/store/commands';
import { PREFIXES } from '../../kernel/store/keys';
import { transact } from '../../kernel/store/ops';
import { fieldUpdate, TABLE } from '../../kernel/store/table';

/**
 * The registry of regions and locations (`PLATFORM#GEO`): seeded from `LOCATIONS` and
 * `DEFAULT_LOCATION` (shared/kernel/config.ts) the first time it is read, then the operators'. `GET
 * /v1/locations` answers its enabled locations, so a platform that never touched it answers what
 * it always did. Invariants, each held by a condition in the write's transaction: an enabled
 * location's region is enabled (a location write adds to its region's `rev`, which a region's
 * disabling checks), and the default location exists and is enabled.
 */
export interface RegionRecord {
  id: string;
  name: string;
  enabled: boolean;
  version: number;
  updatedAt: number;
  /** Moved by every write of an enabled location in the region: a disabling checks it is unchanged. */
  rev?: number;
}

export interface LocationRecord {
  id: string;
  name: string;
  region: string;
  enabled: boolean;
  version: number;
  updatedAt: number;
}

const geoKeys = {
  region: (id: string) => ({ pk: CATALOG.geo, sk: `${PREFIXES.platformAdmin.region}${id}` }),
  location: (id: string) => ({ pk: CATALOG.geo, sk: `${PREFIXES.platformAdmin.location}${id}` }),
  default: () => ({ pk: CATALOG.geo, sk: 'DEFAULT' }),
};

/** Names of the AWS regions the default locations use; any other region is named by its id. */
const REGION_NAMES: Record<string, string> = {
  'eu-central-1': 'Europe (Frankfurt)',
  'eu-west-1': 'Europe (Ireland)',
  'us-east-1': 'US East (N. Virginia)',
};

function seed() {
  const regionIds = [...new Set(configured.map((l) => l.region))];
  return [
    ...regionIds.map((id) => ({ ...geoKeys.region(id), id, name: REGION_NAMES[id] ?? id, enabled: true })),
    ...configured.map((l) => ({ ...geoKeys.location(l.id), id: l.id, name: l.name, region: l.region, enabled: true })),
    { ...geoKeys.default(), locationId: defaultLocation },
  ];
}

export interface Geo {
  regions: RegionRecord[];
  locations: LocationRecord[];
  defaultId: string;
  defaultVersion: number;
}

/** The whole registry: one Query. */
export async function readGeo(consistent = false): Promise<Geo> {
  const items = await readCatalog<Record<string, unknown> & { sk: string }>(CATALOG.geo, seed, consistent);
  const byId = <T>(prefix: string) =>
    items
      .filter((i) => i.sk.startsWith(prefix))
      .map((i) => i as unknown as T & { id: string })
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const pointer = items.find((i) => i.sk === 'DEFAULT') as { locationId?: string; version?: number } | undefined;
  return {
    regions: byId<RegionRecord>(PREFIXES.platformAdmin.region),
    locations: byId<LocationRecord>(PREFIXES.platformAdmin.location),
    defaultId: pointer?.locationId ?? defaultLocation,
    defaultVersion: pointer?.version ?? 1,
  };
}

export const showLocation = (l: LocationRecord, defaultId: string) => ({
  id: l.id,
  name: l.name,
  region: l.region,
  enabled: l.enabled,
  default: l.id === defaultId,
  version: l.version,
  updatedAt: l.updatedAt,
});

export const showRegion = (r: RegionRecord, geo: Geo) => ({
  id: r.id,
  name: r.name,
  enabled: r.enabled,
  version: r.version,
  updatedAt: r.updatedAt,
  locations: geo.locations.filter((l) => l.region === r.id).map((l) => showLocation(l, geo.defaultId)),
});

/**
 * How long a function keeps the registry for the checks of creates: a change shows within it in
 * other functions, at once in the one that made it.
 */
const USABLE_TTL_MS = 10_000;
let usable: { at: number; geo: Geo } | undefined;

/**
 * The location a create may use (a project, a resource, a repository): `id`, or the registry's
 * default when none is given, while it is enabled, with its region. Undefined: unknown or
 * disabled (the caller's 400). The registry is read at most every 10 seconds per function.
 */
export async function usableLocation(id: string | undefined, now = Date.now()): Promise<LocationRecord | undefined> {
  const geo = await cachedGeo(now);
  const location = geo.locations.find((l) => l.id === (id ?? geo.defaultId));
  return location?.enabled ? location : undefined;
}

/** The region of a location of the registry, enabled or not (what exists keeps running where it is). */
export async function regionOfLocation(id: string, now = Date.now()): Promise<string | undefined> {
  return (await cachedGeo(now)).locations.find((l) => l.id === id)?.region;
}

async function cachedGeo(now: number): Promise<Geo> {
  if (!usable || now - usable.at > USABLE_TTL_MS) usable = { at: now, geo: await readGeo() };
  return usable.geo;
}

/** What `GET /v1/locations` answers: the enabled locations, the default marked. */
export async function publicLocations() {
  const geo = await readGeo();
  return {
    locations: geo.locations
      .filter((l) => l.enabled)
      .map((l) => ({ id: l.id, name: l.name, region: l.region, default: l.id === geo.defaultId })),
    default: geo.defaultId,
  };
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Sets `fields` of a new (`existing` undefined) or existing entry, `version` moved, guarded by `ifVersion`. */
function entryWrite(
  key: { pk: string; sk: string },
  existing: boolean,
  fields: Record<string, unknown>,
  ifVersion: number | undefined,
  extra: { condition?: string; values?: Record<string, unknown>; names?: Record<string, string> } = {},
): TransactItem {
  const now = Date.now();
  if (!existing) {
    return {
      Put: {
        TableName: TABLE(),
        Item: { ...key, ...fields, version: 1, updatedAt: now },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }
  const update = fieldUpdate(
    { ...fields, updatedAt: now },
    {
      sets: ['#version = #version + :one'],
      names: { '#version': 'version', ...extra.names },
      values: { ':one': 1, ...extra.values },
    },
  );
  const conditions = ['attribute_exists(pk)'];
  if (ifVersion !== undefined) {
    update.ExpressionAttributeValues[':expected'] = ifVersion;
    conditions.push('#version = :expected');
  }
  if (extra.condition) conditions.push(extra.condition);
  return { Update: { TableName: TABLE(), Key: key, ...update, ConditionExpression: conditions.join(' AND ') } };
}

/** Runs a transaction whose items each have their own failure (undefined: the entry's staleness). */
async function write(items: { item: TransactItem; failure: () => DomainError }[]): Promise<void> {
  await transact(
    items.map((i) => i.item),
    async (index) => items[index]?.failure(),
  );
}

export async function putRegion(
  id: string,
  body: { name?: string; enabled?: boolean; ifVersion?: number },
): Promise<{ region: ReturnType<typeof showRegion>; created: boolean }> {
  usable = undefined;
  const geo = await readGeo(true);
  const existing = geo.regions.find((r) => r.id === id);
  if (!existing && (body.name === undefined || body.ifVersion !== undefined))
    throw notFound(PLATFORM_ADMIN_MESSAGES.regionNotFound);
  const disabling = existing?.enabled === true && body.enabled === false;
  if (disabling) {
    const inUse = geo.locations.filter((l) => l.region === id && l.enabled).map((l) => l.id);
    if (inUse.length > 0) throw conflict(PLATFORM_ADMIN_MESSAGES.regionInUse(inUse));
  }
  const fields = existing
    ? { name: body.name, enabled: body.enabled }
    : { id, name: body.name, enabled: body.enabled ?? true };
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  // A disabling holds only while no enabled location was written in the region since it was read.
  const guard = disabling
    ? existing?.rev === undefined
      ? { condition: 'attribute_not_exists(#rev)', names: { '#rev': 'rev' } }
      : { condition: '#rev = :rev', names: { '#rev': 'rev' }, values: { ':rev': existing.rev } }
    : {};
  await write([
    {
      item: entryWrite(geoKeys.region(id), existing !== undefined, defined, body.ifVersion, guard),
      failure: () => conflict(PLATFORM_ADMIN_MESSAGES.regionStale),
    },
  ]);
  const after = await readGeo(true);
  const region = after.regions.find((r) => r.id === id) as RegionRecord;
  return { region: showRegion(region, after), created: !existing };
}

export async function putLocation(
  id: string,
  body: { name?: string; region?: string; enabled?: boolean; default?: boolean; ifVersion?: number },
): Promise<{ location: ReturnType<typeof showLocation>; created: boolean }> {
  usable = undefined;
  const geo = await readGeo(true);
  const existing = geo.locations.find((l) => l.id === id);
  if (!existing && (body.name === undefined || body.region === undefined || body.ifVersion !== undefined)) {
    throw notFound(PLATFORM_ADMIN_MESSAGES.locationNotFound);
  }
  const regionId = body.region ?? (existing?.region as string);
  const region = geo.regions.find((r) => r.id === regionId);
  if (!region) throw invalid(PLATFORM_ADMIN_MESSAGES.unknownRegion(regionId));
  const enabled = body.enabled ?? existing?.enabled ?? true;
  const isDefault = geo.defaultId === id;
  if (body.default === false && isDefault) throw invalid(PLATFORM_ADMIN_MESSAGES.keepDefault);
  if (!enabled && body.default === true) throw invalid(PLATFORM_ADMIN_MESSAGES.defaultMustBeEnabled);
  if (!enabled && isDefault) throw conflict(PLATFORM_ADMIN_MESSAGES.defaultDisabled);
  if (enabled && !region.enabled) throw conflict(PLATFORM_ADMIN_MESSAGES.regionDisabled(regionId));

  const fields = existing
    ? { name: body.name, region: body.region, enabled: body.enabled }
    : { id, name: body.name, region: regionId, enabled };
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const items: { item: TransactItem; failure: () => DomainError }[] = [
    {
      item: entryWrite(geoKeys.location(id), existing !== undefined, defined, body.ifVersion),
      failure: () => conflict(PLATFORM_ADMIN_MESSAGES.locationStale),
    },
  ];
  if (enabled) {
    // Tells a disabling of the region running now that an enabled location was written in it.
    items.push({
      item: {
        Update: {
          TableName: TABLE(),
          Key: geoKeys.region(regionId),
          UpdateExpression: 'SET #rev = if_not_exists(#rev, :zero) + :one',
          ConditionExpression: '#enabled = :true',
          ExpressionAttributeNames: { '#rev': 'rev', '#enabled': 'enabled' },
          ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':true': true },
        },
      },
      failure: () => conflict(PLATFORM_ADMIN_MESSAGES.regionDisabled(regionId)),
    });
  }
  const pointer = geoKeys.default();
  if (body.default === true && !isDefault) {
    items.push({
      item: {
        Update: {
          TableName: TABLE(),
          Key: pointer,
          UpdateExpression: 'SET locationId = :id, #version = if_not_exists(#version, :zero) + :one',
          ConditionExpression: 'locationId = :old',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':id': id, ':old': geo.defaultId, ':zero': 0, ':one': 1 },
        },
      },
      failure: () => conflict(PLATFORM_ADMIN_MESSAGES.locationStale),
    });
  } else if (!enabled) {
    // Disabled while another request makes it the default: one of the two is refused.
    items.push({
      item: {
        ConditionCheck: {
          TableName: TABLE(),
          Key: pointer,
          ConditionExpression: 'locationId <> :id',
          ExpressionAttributeValues: { ':id': id },
        },
      },
      failure: () => conflict(PLATFORM_ADMIN_MESSAGES.defaultDisabled),
    });
  }
  await write(items);
  const after = await readGeo(true);
  const location = after.locations.find((l) => l.id === id) as LocationRecord;
  return { location: showLocation(location, after.defaultId), created: !existing };
}
