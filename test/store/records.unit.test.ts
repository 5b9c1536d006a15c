import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as z from 'zod/mini';
import { LABEL_COLORS } from '../../shared/domains/repos/label-colors';
import { RepoLabel } from '../../shared/domains/repos/record-schemas';
import { templateConfig } from '../../shared/domains/tracker/catalog';
import type { Space } from '../../shared/domains/tracker/model';
import { TrackerSpace } from '../../shared/domains/tracker/record-schemas';
import { sourcesUnder } from './prefixes';

/**
 * A stored record is typed from its zod schema (`z.output<typeof X>`, in the product's
 * record-schemas.ts), never by an interface written again beside it: two declarations drift (a
 * version's schema lacked its dates and its deployments while the interface had them).
 */
const root = resolve(__dirname, '../..');

/** The interfaces (and object type literals) of `files` that mirror a schema of `schemas` by name. */
function mirrored(schemas: string[], files: { file: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { file, text } of files) {
    for (const m of text.matchAll(/^(?:export )?(?:interface (\w+)\b|type (\w+) = \{)/gm)) {
      const name = (m[1] ?? m[2]) as string;
      const base = name.replace(/Record$/, '');
      const schema = schemas.find((s) => s === name || s === base || (base.length >= 4 && s.endsWith(base)));
      if (schema) found.push(`${file}: ${name} mirrors the schema ${schema}`);
    }
  }
  return found;
}

const products = readdirSync(join(root, 'shared/domains')).filter((p) =>
  existsSync(join(root, 'shared/domains', p, 'record-schemas.ts')),
);

describe('stored records from their zod schemas', () => {
  it('no product declares an interface beside a record schema of the same name', () => {
    const found = products.flatMap((product) => {
      const dir = join(root, 'shared/domains', product);
      const schemaText = readFileSync(join(dir, 'record-schemas.ts'), 'utf8');
      const schemas = [...schemaText.matchAll(/^export const (\w+) = z\b/gm)].map((m) => m[1] as string);
      const files = sourcesUnder(root, [relative(root, dir)]).map((file) => ({
        file,
        text: readFileSync(join(root, file), 'utf8'),
      }));
      return mirrored(schemas, files);
    });
    expect(found).toEqual([]);
  });

  it("a repository label answers one of the spec's colors, as it is stored (the schema took any string)", () => {
    expect(z.safeParse(RepoLabel, { name: 'bug', color: 'red' }).success).toBe(false);
    for (const color of LABEL_COLORS) expect(z.safeParse(RepoLabel, { name: 'bug', color }).success).toBe(true);
  });

  it("a tracker space's schema holds all a space stores and answers (it left out its settings, screens and desk)", () => {
    for (const template of ['basic', 'service', 'scrum', 'kanban', 'bugs'] as const) {
      const config = templateConfig(template);
      config.access.members.push({ type: 'user', id: 'usr_1', role: 'admin' });
      config.securityLevels.push({
        id: 'staff',
        name: 'Staff',
        grants: [{ type: 'spaceRole', role: 'admin' }, { type: 'reporter' }],
      });
      config.fieldSettings.priority = { required: true };
      const space: Space = {
        ...{ orgId: 'org_1', spaceId: 'spc_1', key: 'ABC', name: 'A', description: '', template, icon: 'rocket' },
        ...{ color: 'teal', archived: true, archivedAt: 2, seq: 3, version: 4, createdAt: 1, updatedAt: 2, config },
      };
      // An object schema drops what it does not declare: nothing is dropped.
      expect(z.parse(TrackerSpace, space)).toEqual(space);
    }
  });

  it('an interface written beside its schema fails (an example that must fail)', () => {
    const text = [
      'export const TrackerVersion = z.object({ versionId: z.string() });',
      'export interface Version { versionId: string }',
      'export interface PageRecord { pageId: string }',
      'export type Page = { pageId: string };',
      'export type Board = z.output<typeof Board>;',
    ].join('\n');
    expect(mirrored(['TrackerVersion', 'Page'], [{ file: 'x.ts', text }])).toEqual([
      'x.ts: Version mirrors the schema TrackerVersion',
      'x.ts: PageRecord mirrors the schema Page',
      'x.ts: Page mirrors the schema Page',
    ]);
  });
});
