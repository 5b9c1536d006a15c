import { CATALOG, putEntry, readCatalog } from '../../kernel/plans/catalog';
import { PLATFORM_ADMIN_MESSAGES } from '../../kernel/plans/messages';
import { PREFIXES } from '../../kernel/store/keys';

/**
 * The catalog of models offered to organizations (`PLATFORM#MODELS`): a name, the provider that
 * serves it and whether it is offered now. It starts empty; operators add and change entries.
 */
export interface ModelRecord {
  id: string;
  name: string;
  provider: string;
  enabled: boolean;
  version: number;
  updatedAt: number;
}

const modelKey = (id: string) => ({ pk: CATALOG.models, sk: `${PREFIXES.platformAdmin.model}${id}` });

export async function listModels(consistent = false): Promise<ModelRecord[]> {
  const items = await readCatalog<ModelRecord>(CATALOG.models, () => [], consistent);
  return items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export const showModel = (m: ModelRecord) => ({
  id: m.id,
  name: m.name,
  provider: m.provider,
  enabled: m.enabled,
  version: m.version,
  updatedAt: m.updatedAt,
});

/** Adds a model (`name` and `provider` given; enabled unless said) or changes one. */
export async function putModel(
  id: string,
  body: { name?: string; provider?: string; enabled?: boolean; ifVersion?: number },
) {
  const existing = (await listModels(true)).find((m) => m.id === id);
  const given = { name: body.name, provider: body.provider, enabled: body.enabled };
  const fields = Object.fromEntries(
    Object.entries(existing ? given : { id, ...given, enabled: body.enabled ?? true }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  const out = await putEntry<ModelRecord>({
    key: modelKey(id),
    existing,
    fields,
    ifVersion: body.ifVersion,
    stale: PLATFORM_ADMIN_MESSAGES.modelStale,
    notFoundMessage: PLATFORM_ADMIN_MESSAGES.modelNotFound,
    required: ['name', 'provider'],
  });
  return { model: out.entry, created: out.created };
}
