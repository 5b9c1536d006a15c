/**
 * Git's pkt-line framing (gitprotocol-common): four hex digits giving the line's length
 * including themselves, then the payload; `0000` is a flush, `0001` a delimiter (protocol v2),
 * `0002` a response end. Side-band: a payload's first byte names its band (1 data, 2 progress,
 * 3 error).
 */
export type Pkt = { kind: 'data'; payload: Buffer } | { kind: 'flush' | 'delim' | 'end' };

const SPECIAL: Record<number, Pkt['kind']> = { 0: 'flush', 1: 'delim', 2: 'end' };
/** The largest pkt-line git writes (LARGE_PACKET_MAX). */
export const MAX_PKT = 65520;

export class PktError extends Error {
  override name = 'PktError';
}

/** One pkt-line of `payload` (a string is UTF-8). */
export function pkt(payload: string | Buffer): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  if (body.length + 4 > MAX_PKT) throw new PktError('pkt-line too long');
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0')), body]);
}

export const FLUSH = Buffer.from('0000');

/**
 * Reads pkt-lines from the front of `buffer`: the lines read and the offset after them. Stops at a
 * line that is not complete yet (`offset` points at it), or after a flush when `untilFlush`.
 */
export function readPkts(buffer: Buffer, untilFlush = false): { pkts: Pkt[]; offset: number; flushed: boolean } {
  const pkts: Pkt[] = [];
  let offset = 0;
  while (offset + 4 <= buffer.length) {
    const head = buffer.subarray(offset, offset + 4).toString('latin1');
    if (!/^[0-9a-f]{4}$/.test(head)) throw new PktError(`bad pkt-line length ${JSON.stringify(head)}`);
    const length = Number.parseInt(head, 16);
    const special = SPECIAL[length];
    if (special) {
      pkts.push({ kind: special } as Pkt);
      offset += 4;
      if (untilFlush && special === 'flush') return { pkts, offset, flushed: true };
      continue;
    }
    if (length < 4) throw new PktError(`bad pkt-line length ${length}`);
    if (offset + length > buffer.length) break;
    pkts.push({ kind: 'data', payload: buffer.subarray(offset + 4, offset + length) });
    offset += length;
  }
  return { pkts, offset, flushed: false };
}

/** `payload` as side-band packets of `band`, each within the side-band-64k limit. */
export function sideBand(band: 1 | 2 | 3, payload: Buffer): Buffer {
  const parts: Buffer[] = [];
  const room = MAX_PKT - 5;
  for (let i = 0; i < payload.length; i += room) {
    parts.push(pkt(Buffer.concat([Buffer.from([band]), payload.subarray(i, i + room)])));
  }
  return Buffer.concat(parts);
}
