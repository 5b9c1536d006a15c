/**
 * iCalendar line folding (RFC 5545 §3.1) in one pass: a content line longer than the limit goes on
 * in continuation lines (CRLF and one space), never inside a UTF-8 sequence. The same output as
 * ical-generator's own folding (its `foldLines`, which encodes every character apart and took
 * seconds for a file of a few MB): at most 74 octets of content a line, so a continuation line with
 * its space is at most 75; a character whose octets would pass the limit begins the next line.
 * Lines are split at CRLF only (as ical-generator does).
 */

/** Octets of content a line holds (a continuation line's leading space not counted). */
export const FOLD_OCTETS = 74;

/** UTF-16 units of a line that can't pass the limit whatever they are (at most 3 octets a unit). */
const SURELY_SHORT = Math.floor(FOLD_OCTETS / 3);

/** One content line (no CRLF in it), folded. */
export function foldLine(line: string): string {
  if (line.length <= SURELY_SHORT) return line;
  let out = '';
  let from = 0;
  let octets = 0;
  const n = line.length;
  for (let i = 0; i < n; i++) {
    const at = i;
    const c = line.charCodeAt(i);
    let size: number;
    if (c < 0x80) size = 1;
    else if (c < 0x800) size = 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      // A high surrogate goes with the unit after it: a pair is 4 octets; after a lone one (written
      // as U+FFFD, 3 octets) the next character stays on its line, as ical-generator keeps it.
      const d = line.charCodeAt(++i);
      size = d >= 0xdc00 && d <= 0xdfff ? 4 : 3 + (d < 0x80 ? 1 : d < 0x800 ? 2 : 3);
    } else size = 3;
    octets += size;
    if (octets > FOLD_OCTETS) {
      out += `${line.slice(from, at)}\r\n `;
      from = at;
      octets = size;
    }
  }
  return from === 0 ? line : out + line.slice(from);
}

/** A text of CRLF-separated lines, each folded. */
export function foldLines(text: string): string {
  const lines = text.split('\r\n');
  for (let i = 0; i < lines.length; i++) lines[i] = foldLine(lines[i] as string);
  return lines.join('\r\n');
}
