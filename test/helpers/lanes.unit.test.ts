import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SLOW, slowPatterns } from './lanes.cjs';

const root = join(__dirname, '..', '..');

/** The lanes of test/helpers/lanes.cjs name real files, and the fast lane leaves the slow ones out. */
describe('the test lanes', () => {
  it.each(SLOW)('%s exists (a renamed file would silently leave the slow lane)', (file) => {
    expect(existsSync(join(root, file))).toBe(true);
  });

  it('lists each slow file once', () => {
    expect(new Set(SLOW).size).toBe(SLOW.length);
  });

  it("the fast lane's ignore patterns match exactly the slow files", () => {
    const patterns = slowPatterns(root).map((p) => new RegExp(p));
    for (const file of SLOW) expect(patterns.some((p) => p.test(join(root, file)))).toBe(true);
    expect(patterns.some((p) => p.test(join(root, 'test/api/client.unit.test.ts')))).toBe(false);
  });
});
