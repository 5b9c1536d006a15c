/**
 * The one rule for text the platform takes. Control characters (C0 but tab, line feed and carriage
 * return; DEL; C1) never carry meaning in a request: they end strings early in other systems (NUL),
 * drive terminals (ESC) or hide in logs. Names, paths, branches, commands, hosts and keys are one
 * line besides: no line break of any kind and no bidirectional override, which makes a name read
 * differently from what it is (`U+202E`).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the rule
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the rule
const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

export const TEXT_MESSAGES = {
  oneLine: 'Use one line of plain text: control characters, line breaks and direction overrides are not allowed.',
  plainText: 'Control characters are not allowed.',
} as const;

export const isOneLine = (value: string): boolean => !NOT_ONE_LINE.test(value);
export const isPlainText = (value: string): boolean => !CONTROL.test(value);

/**
 * Paths (`a.b.0`) of the strings under `value` that are not one line. Path parameters and query
 * strings are names and filters everywhere, so the middy stack holds all of them to the rule.
 */
export function notOneLine(value: unknown, base = ''): string[] {
  if (typeof value === 'string') return isOneLine(value) ? [] : [base];
  if (Array.isArray(value)) return value.flatMap((v, i) => notOneLine(v, base ? `${base}.${i}` : String(i)));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => notOneLine(v, base ? `${base}.${k}` : k));
  }
  return [];
}
