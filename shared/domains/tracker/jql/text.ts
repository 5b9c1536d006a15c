/**
 * `~` as Jira means it: word containment, blind to case and accents. Every word of the value must
 * appear in the text (`*` at a word's end matches any ending, `"quoted words"` must appear in a
 * row); `?`-style wildcards and stemming are not supported.
 */

/** Lower case, accents removed. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a text, folded. */
export function words(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

interface Term {
  words: string[];
  /** The last word is a prefix (`win*`). */
  prefix: boolean;
}

/** Splits a `~` value into terms: single words, and phrases written in inner quotes. */
export function terms(value: string): Term[] {
  const out: Term[] = [];
  const parts = value.split('"');
  parts.forEach((part, i) => {
    const phrase = i % 2 === 1;
    const chunks = phrase ? [part] : part.split(/\s+/);
    for (const chunk of chunks) {
      const w = words(chunk);
      if (w.length === 0) continue;
      const prefix = chunk.trimEnd().endsWith('*');
      if (phrase) out.push({ words: w, prefix });
      else for (const [j, word] of w.entries()) out.push({ words: [word], prefix: prefix && j === w.length - 1 });
    }
  });
  return out;
}

const same = (have: string, want: string, prefix: boolean) => (prefix ? have.startsWith(want) : have === want);

function hasTerm(text: string[], term: Term): boolean {
  const n = term.words.length;
  for (let i = 0; i + n <= text.length; i++) {
    let ok = true;
    for (let j = 0; j < n && ok; j++) ok = same(text[i + j]!, term.words[j]!, term.prefix && j === n - 1);
    if (ok) return true;
  }
  return false;
}

/** Whether the texts (tokenized apart: a phrase never spans two of them) hold every term. */
export function containsAll(texts: string[][], wanted: Term[]): boolean {
  if (wanted.length === 0) return texts.some((t) => t.length > 0);
  return wanted.every((term) => texts.some((t) => hasTerm(t, term)));
}
