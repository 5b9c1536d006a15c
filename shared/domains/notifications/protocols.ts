import { invalid, notFound } from '../../kernel/ground/errors';
import { orgIsActive } from '../../kernel/identity/orgs';
import { newId } from '../../kernel/store/ids';
import { PREFIXES } from '../../kernel/store/keys';
import { queryPrefix, transact } from '../../kernel/store/ops';
import { getItem, orgPk, putNew, TABLE, versionedUpdate } from '../../kernel/store/table';
import type { ResourceType, Rule } from './kinds';
import type { ProtocolRecord } from './record-schemas';

export const PROTOCOL_MESSAGES = {
  notFound: 'Protocol not found',
  tooMany: 'An organization can have up to 50 protocols.',
  tooManyAttachments: 'A protocol can have up to 100 attachments.',
  unknownType: 'Unknown resource type.',
  unknownTemplate: 'Unknown template.',
  attachmentNotFound: 'Attachment not found',
  changed: 'The protocol changed. Reload and try again.',
} as const;

export const MAX_PROTOCOLS = 50;
export const MAX_ATTACHMENTS = 100;

export type { ProtocolRecord } from './record-schemas';
export type Attachment = ProtocolRecord['attachments'][number];

const PROTOCOL = PREFIXES.notifications.protocol;
const ATTACHED = PREFIXES.notifications.attached;
export const protocolKey = (orgId: string, protocolId: string) => ({
  pk: orgPk(orgId),
  sk: `${PROTOCOL}${protocolId}`,
});
/** One item per attachment: the protocols of a resource are one query (`NOTIFYATT#<type>#<id>#`). */
const attachedPrefix = (type: ResourceType, id: string) => `${ATTACHED}${type}#${id}#`;
const attachedKey = (orgId: string, a: Attachment, protocolId: string) => ({
  pk: orgPk(orgId),
  sk: `${attachedPrefix(a.resourceType, a.resourceId)}${protocolId}`,
});

/** The protocol as the API shows it. */
export function shownProtocol(p: ProtocolRecord) {
  return {
    protocolId: p.protocolId,
    orgId: p.orgId,
    name: p.name,
    ...(p.description !== undefined ? { description: p.description } : {}),
    enabled: p.enabled,
    createdBy: p.createdBy,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    version: p.version,
    rules: p.rules,
    attachments: p.attachments,
  };
}

export const listProtocols = (orgId: string) => queryPrefix<ProtocolRecord>(orgPk(orgId), PROTOCOL);

export async function requireProtocol(orgId: string, protocolId: string, consistent = false): Promise<ProtocolRecord> {
  const p = protocolId.startsWith('npr_')
    ? await getItem<ProtocolRecord>(protocolKey(orgId, protocolId), consistent)
    : undefined;
  if (!p) throw notFound(PROTOCOL_MESSAGES.notFound);
  return p;
}

export interface ProtocolInput {
  name: string;
  description?: string;
  enabled: boolean;
  rules: Rule[];
}

/**
 * A new protocol. The limit of 50 is read first (a race may pass it by one or two: the count is
 * advisory, as peers' soft limits are); the organization must be active, in the same write.
 */
export async function createProtocol(orgId: string, input: ProtocolInput, createdBy: string): Promise<ProtocolRecord> {
  const existing = await listProtocols(orgId);
  if (existing.length >= MAX_PROTOCOLS) throw invalid(PROTOCOL_MESSAGES.tooMany);
  const now = Date.now();
  const protocol: ProtocolRecord = {
    protocolId: newId('npr_', now),
    orgId,
    name: input.name,
    ...(input.description !== undefined ? { description: input.description } : {}),
    enabled: input.enabled,
    createdBy,
    createdAt: now,
    updatedAt: now,
    version: 1,
    rules: input.rules,
    attachments: [],
  };
  await transact([putNew({ ...protocolKey(orgId, protocol.protocolId), ...protocol }), orgIsActive(orgId)]);
  return protocol;
}

/** `PUT`: every field replaced but its attachments; with `ifVersion`, only if still that version. */
export async function replaceProtocol(
  p: ProtocolRecord,
  input: ProtocolInput,
  ifVersion: number | undefined,
): Promise<ProtocolRecord> {
  const fields = {
    name: input.name,
    description: input.description,
    enabled: input.enabled,
    rules: input.rules,
    updatedAt: Date.now(),
  };
  await writeVersioned(p, ifVersion ?? p.version, fields, []);
  return { ...p, ...fields, version: p.version + 1 } as ProtocolRecord;
}

/** A versioned write of the protocol with other items in one transaction; a stale version is 409. */
async function writeVersioned(
  p: ProtocolRecord,
  expected: number,
  fields: Record<string, unknown>,
  others: NonNullable<Parameters<typeof transact>[0]>,
) {
  await transact(
    [{ Update: versionedUpdate(protocolKey(p.orgId, p.protocolId), expected, fields) }, ...others],
    [PROTOCOL_MESSAGES.changed],
  );
}

/** Deletes the protocol and its attachments' items in one transaction. */
export async function deleteProtocol(p: ProtocolRecord): Promise<void> {
  await transact(
    [
      {
        Delete: {
          TableName: TABLE(),
          Key: protocolKey(p.orgId, p.protocolId),
          ConditionExpression: '#version = :v',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':v': p.version },
        },
      },
      ...p.attachments.map((a) => ({ Delete: { TableName: TABLE(), Key: attachedKey(p.orgId, a, p.protocolId) } })),
    ],
    [PROTOCOL_MESSAGES.changed],
  );
}

/** Attaches a resource (again: its label is updated); 100 at most. */
export async function attach(p: ProtocolRecord, a: Attachment): Promise<void> {
  const others = p.attachments.filter((x) => !(x.resourceType === a.resourceType && x.resourceId === a.resourceId));
  if (others.length >= MAX_ATTACHMENTS) throw invalid(PROTOCOL_MESSAGES.tooManyAttachments);
  const attachments = [...others, a];
  await writeVersioned(p, p.version, { attachments, updatedAt: Date.now() }, [
    {
      Put: {
        TableName: TABLE(),
        Item: { ...attachedKey(p.orgId, a, p.protocolId), protocolId: p.protocolId, ...a },
      },
    },
  ]);
}

export async function detach(p: ProtocolRecord, type: ResourceType, id: string): Promise<void> {
  const found = p.attachments.find((x) => x.resourceType === type && x.resourceId === id);
  if (!found) throw notFound(PROTOCOL_MESSAGES.attachmentNotFound);
  const attachments = p.attachments.filter((x) => x !== found);
  await writeVersioned(p, p.version, { attachments, updatedAt: Date.now() }, [
    { Delete: { TableName: TABLE(), Key: attachedKey(p.orgId, found, p.protocolId) } },
  ]);
}

/**
 * The enabled protocols an event follows: those attached to the first of its resources that has
 * any; else the organization's (attached to it, or to nothing: a protocol attached nowhere holds
 * for the whole organization). Oldest first.
 */
export async function protocolsFor(
  orgId: string,
  resources: { type: ResourceType; id: string }[],
): Promise<ProtocolRecord[]> {
  const all = await listProtocols(orgId);
  const enabled = all.filter((p) => p.enabled);
  for (const r of resources) {
    if (r.type === 'org') continue;
    const attached = await queryPrefix<{ protocolId: string }>(orgPk(orgId), attachedPrefix(r.type, r.id));
    if (attached.length > 0) {
      const ids = new Set(attached.map((a) => a.protocolId));
      return enabled.filter((p) => ids.has(p.protocolId));
    }
  }
  return enabled.filter(
    (p) => p.attachments.length === 0 || p.attachments.some((a) => a.resourceType === 'org' && a.resourceId === orgId),
  );
}
