import { resolve } from 'node:path';
import { PREFIXES } from '../../shared/kernel/store/keys';
import { declaredWords, literalsIn, prefixLiterals, prefixProblems } from './prefixes';

/**
 * The registry of key prefixes (shared/kernel/store/keys.ts): each prefix declared once, by one
 * product, and every `XYZ#` a string of shared/ or functions/ writes declared there.
 */
const root = resolve(__dirname, '../..');
const REGISTRY = 'shared/kernel/store/keys.ts';
let literals: ReturnType<typeof literalsIn>;
beforeAll(() => {
  literals = literalsIn(root, ['shared', 'functions']);
});

describe('key prefixes', () => {
  it('no two products declare one prefix, and each first word has one owner', () => {
    expect(prefixProblems(PREFIXES)).toEqual([]);
  });

  it('a table where two products declare one prefix fails (an example that must fail)', () => {
    expect(
      prefixProblems({
        tracker: { issue: 'TISSUE#' },
        repos: { issue: 'TISSUE#', nested: 'TISSUE#X#' },
        mail: { lower: 'mbx#' },
      }),
    ).toEqual([
      "repos.issue: 'TISSUE#' is declared by tracker.issue too",
      "repos.issue: 'TISSUE#' belongs to tracker",
      "repos.nested: 'TISSUE#' belongs to tracker",
      "mail.lower: 'mbx#' is not made of WORD# words",
    ]);
  });

  it('the scan finds the prefixes strings write, in quotes, templates and regular expressions, not in comments', () => {
    const found = prefixLiterals(
      [
        '// `COMMENT#<id>` is a layout, not a key',
        "const a = 'NOPE#';",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text a test reads
        'const b = `ORG#${orgId}#NESTED#${x}`;',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text a test reads
        'const c = "#ffffff" + `${x}#not` + "C#";',
        "const d = pk.replace(/^REGEX#/, '');",
      ].join('\n'),
    );
    expect(found).toEqual([
      { word: 'NOPE#', line: 2 },
      { word: 'ORG#', line: 3 },
      { word: 'NESTED#', line: 3 },
      { word: 'C#', line: 4 },
      { word: 'REGEX#', line: 5 },
    ]);
  });

  it('every prefix a string of shared/ or functions/ writes is declared in the registry', () => {
    const words = declaredWords(PREFIXES);
    const undeclared = literals.filter((l) => !words.has(l.word)).map((l) => `${l.file}:${l.line} ${l.word}`);
    expect(undeclared).toEqual([]);
  });

  it('keys are built through the registry: no string outside it spells a prefix', () => {
    // The idempotency records' module is the one left to move (its prefix is declared).
    const LEFT = ['shared/kernel/http/idempotency.ts'];
    const spelled = literals
      .filter((l) => l.file !== REGISTRY && !LEFT.includes(l.file))
      .map((l) => `${l.file}:${l.line} ${l.word}`);
    expect(spelled).toEqual([]);
  });

  it('the check refuses a source with a prefix the registry does not declare', () => {
    const words = declaredWords(PREFIXES);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text a test reads
    const found = prefixLiterals("export const k = (id: string) => ({ pk: `UNDECLARED#${id}`, sk: 'ORG' });");
    expect(found.filter((l) => !words.has(l.word)).map((l) => l.word)).toEqual(['UNDECLARED#']);
  });
});
