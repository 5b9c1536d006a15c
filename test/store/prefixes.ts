import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

/**
 * Reading key prefixes: the registry's table as a list, what is wrong with a table, and the
 * `XYZ#` words written in the strings of a source file (comments are not read: they may show a
 * key's layout).
 */

export type PrefixTable = Record<string, Record<string, string>>;

export const declaredPrefixes = (table: PrefixTable) =>
  Object.entries(table).flatMap(([product, names]) =>
    Object.entries(names).map(([name, prefix]) => ({ product, name, prefix })),
  );

/** A prefix declared twice, a first word claimed by two products, a prefix not made of `WORD#` words. */
export function prefixProblems(table: PrefixTable): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const firstWords = new Map<string, string>();
  for (const { product, name, prefix } of declaredPrefixes(table)) {
    const at = `${product}.${name}`;
    if (!/^([A-Z][A-Z0-9]*#)+$/.test(prefix)) problems.push(`${at}: '${prefix}' is not made of WORD# words`);
    const before = seen.get(prefix);
    if (before) problems.push(`${at}: '${prefix}' is declared by ${before} too`);
    else seen.set(prefix, at);
    const first = prefix.slice(0, prefix.indexOf('#') + 1);
    const owner = firstWords.get(first);
    if (owner && owner !== product) problems.push(`${at}: '${first}' belongs to ${owner}`);
    else firstWords.set(first, product);
  }
  return problems;
}

/** Every word of every declared prefix (`CTS#W#` declares `CTS#` and `W#`). */
export const declaredWords = (table: PrefixTable) =>
  new Set(declaredPrefixes(table).flatMap(({ prefix }) => prefix.match(/[A-Z][A-Z0-9]*#/g) ?? []));

/** The `XYZ#` words in the string literals, template pieces and regular expressions of a TypeScript source, with their lines. */
export function prefixLiterals(text: string, fileName = 'source.ts'): { word: string; line: number }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found: { word: string; line: number }[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isRegularExpressionLiteral(node)
    ) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      for (const m of node.text.matchAll(/(?<![A-Za-z0-9_])[A-Z][A-Z0-9_]*#/g)) found.push({ word: m[0], line });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The TypeScript sources under `dirs` (relative to `root`), declarations and tests left out. */
export function sourcesUnder(root: string, dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(relative(root, path));
    }
  };
  for (const d of dirs) walk(join(root, d));
  return out.sort();
}

/** Each literal prefix word in the sources under `dirs`, by file. */
export function literalsIn(root: string, dirs: string[]): { file: string; word: string; line: number }[] {
  return sourcesUnder(root, dirs).flatMap((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    // Only a file with a `X#` anywhere can have one in a string: the others are not parsed.
    if (!/[A-Z][A-Z0-9_]*#/.test(text)) return [];
    return prefixLiterals(text, file).map((l) => ({ file, ...l }));
  });
}
