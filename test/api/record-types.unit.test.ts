import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * One schema per record: each record the API answers is a zod schema in
 * `shared/domains/<product>/record-schemas.ts`, registered with an id, whose type is inferred beside
 * it (`export type X = z.output<typeof X>`). Code imports that type (or derives its own from it,
 * `XRecord = X & { … }` for what is stored beside the answer); no interface or type alias anywhere
 * else in the code takes a registered id's name, so no record is written again by hand.
 */

const root = resolve(__dirname, '../..');
const CODE = ['shared', 'functions', 'lib', 'cli', 'agent'];

/**
 * Hand-written copies still in files other work is changing, each with its reason. The test fails
 * when one is gone, so the list only shrinks.
 */
const PENDING: Record<string, string> = {};

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return /\.(ts|cts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const schemaFiles = readdirSync(join(root, 'shared/domains'))
  .map((d) => `shared/domains/${d}/record-schemas.ts`)
  .filter((f) => {
    try {
      return statSync(join(root, f)).isFile();
    } catch {
      return false;
    }
  });

/** Every id registered in the domains' record schemas, with the file that registers it. */
function registeredIds(): Map<string, string> {
  const ids = new Map<string, string>();
  for (const file of schemaFiles) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/\.register\(\s*z\.globalRegistry\s*,\s*\{\s*id:\s*'([A-Za-z0-9_]+)'/g)) {
      ids.set(m[1] as string, file);
    }
  }
  return ids;
}

/** `z.output<typeof X>` / `z.infer<typeof X>` of the schema named X: the one declaration allowed. */
function isInferred(node: ts.TypeAliasDeclaration): boolean {
  const t = node.type;
  if (!ts.isTypeReferenceNode(t) || !ts.isQualifiedName(t.typeName)) return false;
  if (!['output', 'infer'].includes(t.typeName.right.text)) return false;
  const [arg] = t.typeArguments ?? [];
  return !!arg && ts.isTypeQueryNode(arg) && ts.isIdentifier(arg.exprName) && arg.exprName.text === node.name.text;
}

/** The interfaces and type aliases of `text` (at any depth) named by a registered id: `file name`. */
function handWritten(file: string, text: string, ids: Map<string, string>): string[] {
  const found: string[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const visit = (node: ts.Node) => {
    if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && ids.has(node.name.text)) {
      const own = ids.get(node.name.text) === file && ts.isTypeAliasDeclaration(node) && isInferred(node);
      if (!own) found.push(`${file} ${node.name.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('one declaration per record', () => {
  const ids = registeredIds();
  const found = CODE.flatMap(sources).flatMap((file) =>
    handWritten(relative(root, join(root, file)), readFileSync(join(root, file), 'utf8'), ids),
  );

  it('finds the registered records', () => {
    expect(schemaFiles.length).toBeGreaterThan(5);
    for (const id of ['Board', 'Mailbox', 'Project', 'Resource', 'ObjectInfo', 'RepoIssue'])
      expect(ids.has(id)).toBe(true);
  });

  it('no record is declared again by hand beside its schema', () => {
    expect(found.filter((f) => !(f in PENDING))).toEqual([]);
  });

  it('each pending copy is still there (remove it from the list once it is gone)', () => {
    expect(Object.keys(PENDING).filter((f) => !found.includes(f))).toEqual([]);
  });

  it('each record schema file infers the type of its records', () => {
    for (const [id, file] of ids) {
      const text = readFileSync(join(root, file), 'utf8');
      expect([id, new RegExp(`^export type ${id} = z\\.(output|infer)<typeof ${id}>;$`, 'm').test(text)]).toEqual([
        id,
        true,
      ]);
    }
  });

  it('catches an interface, an alias and a retyped inferred type, and allows the inferred one', () => {
    const known = new Map([
      ['Board', 'shared/domains/tracker/record-schemas.ts'],
      ['Sprint', 'shared/domains/tracker/record-schemas.ts'],
    ]);
    const copy = [
      'export interface Board { boardId: string }',
      'function f() { type Sprint = { sprintId: string }; return null as unknown as Sprint; }',
    ].join('\n');
    expect(handWritten('shared/domains/tracker/model.ts', copy, known)).toEqual([
      'shared/domains/tracker/model.ts Board',
      'shared/domains/tracker/model.ts Sprint',
    ]);
    const schemas = [
      'export type Board = z.output<typeof Board>;',
      'export type Sprint = { sprintId: string };',
      "export type { Board as Other } from './x';",
    ].join('\n');
    expect(handWritten('shared/domains/tracker/record-schemas.ts', schemas, known)).toEqual([
      'shared/domains/tracker/record-schemas.ts Sprint',
    ]);
  });
});
