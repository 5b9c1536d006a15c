import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { getMany, TABLE } from '../../kernel/store/table';
import { type ConnectorRecord, toolPartKey } from './records';

/** A tool as the API shows it (spec part B, "Tool"). */
export interface Tool {
  name: string;
  exposedName: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** What a server lists for a tool (MCP `tools/list`), as far as it is kept. */
export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

const MAX_EXPOSED = 64;
const HASH_CHARS = 8;
const shortHash = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, HASH_CHARS);

/**
 * The names tools are offered under: `<slug>__<name>`, characters outside `[A-Za-z0-9_-]` as `_`,
 * at most 64 characters. A name that had to change (characters replaced, or cut) and meets another
 * tool's gets a short hash of its own name instead of its end, so every exposed name is unique and
 * stays the same from one `test` to the next whatever order the server lists them in.
 */
export function exposedNames(slug: string, names: readonly string[]): string[] {
  const plain = names.map((name) => `${slug}__${name}`);
  const bases = plain.map((p) => p.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_EXPOSED));
  const seen = new Map<string, number>();
  for (const b of bases) seen.set(b, (seen.get(b) ?? 0) + 1);
  const hashed = (i: number) =>
    `${(bases[i] as string).slice(0, MAX_EXPOSED - HASH_CHARS - 1)}_${shortHash(names[i] as string)}`;
  return bases.map((base, i) => {
    const changed = base !== plain[i];
    return changed && (seen.get(base) ?? 0) > 1 ? hashed(i) : base;
  });
}

/** The tools kept of a listing: the first `max`, with their exposed names; the rest only counted. */
export function keepTools(
  slug: string,
  listed: readonly ListedTool[],
  max: number,
): { tools: Tool[]; omitted: number } {
  const kept = listed.slice(0, max);
  const names = exposedNames(
    slug,
    kept.map((t) => t.name),
  );
  const tools = kept.map((t, i) => ({
    name: t.name,
    exposedName: names[i] as string,
    ...(typeof t.title === 'string' ? { title: t.title } : {}),
    ...(typeof t.description === 'string' ? { description: t.description } : {}),
    inputSchema: t.inputSchema && typeof t.inputSchema === 'object' ? t.inputSchema : { type: 'object' },
  }));
  return { tools, omitted: Math.max(0, listed.length - max) };
}

/** Under DynamoDB's 400 KB per item, with room for the keys. */
const PART_BYTES = 350_000;
/** What one transaction (4 MB) takes with the connector's update beside the parts. */
export const MAX_PACKED_BYTES = 3_000_000;
export const TOO_LARGE = 'The tool list is too large to keep (over 3 MB compressed). The last good tools stay.';

/**
 * The items that hold a connector's tools (gzip'd JSON cut in parts) and the deletes of parts an
 * earlier, longer list left, for the transaction that also updates the connector; undefined when
 * the list would not fit one transaction.
 */
export function toolItems(c: ConnectorRecord, tools: Tool[]) {
  const packed = gzipSync(Buffer.from(JSON.stringify(tools)));
  if (packed.length > MAX_PACKED_BYTES) return undefined;
  const parts: Buffer[] = [];
  for (let at = 0; at < packed.length; at += PART_BYTES) parts.push(packed.subarray(at, at + PART_BYTES));
  const writes = parts.map((data, n) => ({
    Put: { TableName: TABLE(), Item: { ...toolPartKey(c.orgId, c.connectorId, n), data } },
  }));
  const stale = [];
  for (let n = parts.length; n < (c.toolParts ?? 0); n++) {
    stale.push({ Delete: { TableName: TABLE(), Key: toolPartKey(c.orgId, c.connectorId, n) } });
  }
  return {
    items: [...writes, ...stale],
    parts: parts.length,
    digest: createHash('sha256').update(packed).digest('base64url'),
  };
}

/** A connector's cached tools (none before its first good `test`). */
export async function readTools(c: ConnectorRecord): Promise<Tool[]> {
  const count = c.toolParts ?? 0;
  if (count === 0) return [];
  const found = await getMany<{ data: Uint8Array }>(
    Array.from({ length: count }, (_, n) => toolPartKey(c.orgId, c.connectorId, n)),
  );
  // A part missing means a newer list is being written: answer none rather than a broken one.
  if (found.some((f) => !f)) return [];
  const packed = Buffer.concat(found.map((f) => Buffer.from((f as { data: Uint8Array }).data)));
  return JSON.parse(gunzipSync(packed).toString('utf8')) as Tool[];
}
