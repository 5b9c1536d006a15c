import { FLUSH, type Pkt, PktError, pkt, readPkts, sideBand } from './pkt-line';

/** One ref update of a push: `<old> <new> <ref>`; an all-zero id is "none" (create or delete). */
export interface RefUpdate {
  old: string;
  next: string;
  ref: string;
}

export const ZERO_ID = '0'.repeat(40);
/** A push's command section is a few lines per ref: more than this is not a push we serve. */
const MAX_COMMANDS_BYTES = 1024 * 1024;

/** The command section of a receive-pack request, read before its pack. */
export interface PushCommands {
  updates: RefUpdate[];
  capabilities: string[];
  /** `shallow <oid>` lines before the commands: a push from a shallow clone names its boundary. */
  shallow: string[];
  /** The bytes read past the section's flush (the start of the pack, or push options). */
  rest: Buffer;
}

const COMMAND = /^([0-9a-f]{40}) ([0-9a-f]{40}) (refs\/[^\s\0]+)$/;
const SHALLOW = /^shallow ([0-9a-f]{40})$/;

/**
 * Reads a receive-pack request's commands (`<old> <new> <ref>\0<capabilities>` first, one per
 * line, then a flush) off the front of `body`, leaving the pack unread. A malformed section is a
 * PktError.
 */
export async function readPushCommands(body: AsyncIterator<Buffer>): Promise<PushCommands> {
  let buffer = Buffer.alloc(0);
  for (;;) {
    const { pkts, offset, flushed } = readPkts(buffer, true);
    if (flushed) return { ...parseCommands(pkts), rest: buffer.subarray(offset) };
    if (buffer.length > MAX_COMMANDS_BYTES) throw new PktError('the push has too many commands');
    const next = await body.next();
    if (next.done) {
      // A request with no commands at all (git sends a lone flush when there is nothing to push).
      if (buffer.length === 0) return { updates: [], capabilities: [], shallow: [], rest: buffer };
      throw new PktError('the push ended inside its commands');
    }
    buffer = Buffer.concat([buffer, next.value]);
  }
}

function parseCommands(pkts: Pkt[]): Omit<PushCommands, 'rest'> {
  const updates: RefUpdate[] = [];
  const shallow: string[] = [];
  let capabilities: string[] = [];
  for (const p of pkts) {
    if (p.kind !== 'data') continue;
    let line = p.payload.toString('utf8').replace(/\n$/, '');
    // A shallow clone's push names the commits its history stops at, before any command.
    const boundary = updates.length === 0 ? SHALLOW.exec(line) : null;
    if (boundary) {
      shallow.push(boundary[1] as string);
      continue;
    }
    const nul = line.indexOf('\0');
    if (nul >= 0) {
      if (updates.length === 0)
        capabilities = line
          .slice(nul + 1)
          .split(' ')
          .filter(Boolean);
      line = line.slice(0, nul);
    }
    // A signed push's certificate is not served here: it ends up refused as a malformed command.
    const m = COMMAND.exec(line);
    if (!m) throw new PktError(`bad push command ${JSON.stringify(line.slice(0, 100))}`);
    updates.push({ old: m[1] as string, next: m[2] as string, ref: m[3] as string });
  }
  return { updates, capabilities, shallow };
}

/**
 * The command section again, with only `updates` (the first line carries the capabilities), after
 * the push's `shallow` lines.
 */
export function writePushCommands(updates: RefUpdate[], capabilities: string[], shallow: string[] = []): Buffer {
  return Buffer.concat([
    ...shallow.map((oid) => pkt(`shallow ${oid}\n`)),
    ...updates.map((u, i) =>
      pkt(`${u.old} ${u.next} ${u.ref}${i === 0 && capabilities.length ? `\0${capabilities.join(' ')}` : ''}\n`),
    ),
    FLUSH,
  ]);
}

export interface Refusal {
  ref: string;
  reason: string;
}

const wantsReport = (capabilities: string[]) =>
  capabilities.includes('report-status') || capabilities.includes('report-status-v2');

const refusedLines = (refused: Refusal[]) =>
  refused.map((r) => pkt(`ng ${r.ref} ${r.reason.replace(/[\r\n]+/g, ' ')}\n`));

/**
 * The answer to a push of which nothing was passed on (every command refused): the report git
 * prints as `! [remote rejected] <ref> (<reason>)` per ref.
 */
export function refusalReport(refused: Refusal[], capabilities: string[]): Buffer {
  if (!wantsReport(capabilities)) return Buffer.alloc(0);
  const inner = Buffer.concat([pkt('unpack ok\n'), ...refusedLines(refused), FLUSH]);
  return capabilities.includes('side-band-64k') || capabilities.includes('side-band')
    ? Buffer.concat([sideBand(1, inner), FLUSH])
    : inner;
}

/**
 * The answer to a push refused whole before its pack was read (it is larger than a request can
 * be): `remote: ` lines saying what to do (side-band progress), then git's report with `unpack
 * <reason>` and every ref rejected, which git prints as `! [remote rejected] <ref> (<reason>)`.
 */
export function wholeRefusalReport(
  updates: RefUpdate[],
  capabilities: string[],
  hint: string[],
  reason: string,
): Buffer {
  const sideband = capabilities.includes('side-band-64k') || capabilities.includes('side-band');
  const inner = wantsReport(capabilities)
    ? Buffer.concat([pkt(`unpack ${reason}\n`), ...refusedLines(updates.map((u) => ({ ref: u.ref, reason }))), FLUSH])
    : Buffer.alloc(0);
  if (!sideband) return inner;
  const said = sideBand(2, Buffer.from(hint.map((line) => `${line}\n`).join('')));
  return Buffer.concat([said, inner.length > 0 ? sideBand(1, inner) : Buffer.alloc(0), FLUSH]);
}

/**
 * The backend's answer to the commands passed on, with the refused ones added to its report, so
 * git reports every ref of the push. Progress (band 2) and errors (band 3) keep their order.
 */
export function mergeReport(answer: Buffer, refused: Refusal[], capabilities: string[]): Buffer {
  if (refused.length === 0 || !wantsReport(capabilities)) return answer;
  const sideband = capabilities.includes('side-band-64k') || capabilities.includes('side-band');
  let inner = answer;
  const others: Buffer[] = [];
  if (sideband) {
    const parts: Buffer[] = [];
    for (const p of readPkts(answer).pkts) {
      if (p.kind !== 'data') continue;
      if (p.payload[0] === 1) parts.push(p.payload.subarray(1));
      else others.push(pkt(p.payload));
    }
    inner = Buffer.concat(parts);
  }
  const lines = readPkts(inner).pkts.filter((p): p is Extract<Pkt, { kind: 'data' }> => p.kind === 'data');
  const merged = Buffer.concat([...lines.map((l) => pkt(l.payload)), ...refusedLines(refused), FLUSH]);
  return sideband ? Buffer.concat([...others, sideBand(1, merged), FLUSH]) : merged;
}

/**
 * What the backend's report says of each ref (`ok <ref>` or `ng <ref> <reason>`), side-band or
 * not; undefined when the answer holds no report (git asked for none, or it was cut short).
 */
export function reportedRefs(answer: Buffer, capabilities: string[]): Map<string, boolean> | undefined {
  if (!wantsReport(capabilities)) return undefined;
  let inner = answer;
  try {
    if (capabilities.includes('side-band-64k') || capabilities.includes('side-band')) {
      const parts: Buffer[] = [];
      for (const p of readPkts(answer).pkts)
        if (p.kind === 'data' && p.payload[0] === 1) parts.push(p.payload.subarray(1));
      inner = Buffer.concat(parts);
    }
    const lines = readPkts(inner)
      .pkts.filter((p): p is Extract<Pkt, { kind: 'data' }> => p.kind === 'data')
      .map((p) => p.payload.toString('utf8').replace(/\n$/, ''));
    if (!lines[0]?.startsWith('unpack ')) return undefined;
    const refs = new Map<string, boolean>();
    for (const line of lines.slice(1)) {
      const m = /^(ok|ng) (\S+)/.exec(line);
      if (m) refs.set(m[2] as string, m[1] === 'ok');
    }
    return refs;
  } catch (err) {
    if (err instanceof PktError) return undefined;
    throw err;
  }
}
