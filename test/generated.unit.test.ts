import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Every generated file (its first lines say "Generated … do not edit") is marked
 * `linguist-generated` in `.gitattributes`, and `npm run generate` names its generator.
 */
const root = resolve(__dirname, '..');
const tracked = execFileSync('git', ['ls-files', '*.ts'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const saysGenerated = (text: string) => /generated[^\n]*do not edit/i.test(text.split('\n', 5).join('\n'));
const generated = tracked.filter((f) => saysGenerated(readFileSync(join(root, f), 'utf8')));

function marked(files: string[]): string[] {
  const out = execFileSync('git', ['check-attr', 'linguist-generated', '--', ...files], {
    cwd: root,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((l) => l.endsWith(': true'))
    .map((l) => l.slice(0, l.indexOf(': linguist-generated')));
}

test('the generated files are found (route indexes, the JQL parser, the typed client)', () => {
  expect(generated).toEqual(
    expect.arrayContaining([
      'client/operations.ts',
      'functions/core/route-index.ts',
      'shared/domains/tracker/jql/parser.ts',
    ]),
  );
  expect(saysGenerated('// Written by hand.\nexport {}')).toBe(false);
});

test('each is marked generated in .gitattributes', () => {
  expect(generated.filter((f) => !marked([f]).includes(f))).toEqual([]);
});

test('npm run generate runs every generator', () => {
  const script = readFileSync(join(root, 'scripts', 'generate.ts'), 'utf8');
  for (const generator of ['route-index.ts', 'jql-parser.ts', 'openapi.ts']) expect(script).toContain(`'${generator}'`);
});
