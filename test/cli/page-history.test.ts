import type { TestPlatform } from '../helpers/platform';
import { pagesPlatform } from '../pages/platform';
import { Cli } from './helpers';

/**
 * `platform page history` and `platform page restore`, each a child process against the local
 * platform (output piped: tab-separated cells): the versions newest first with who saved them,
 * one version's Markdown (--show), --limit with its hint, a restore as a new version (and the page
 * holding it, through the API), a stale --base-version and an unknown version refused, and the
 * usage errors caught before any request.
 */
let p: TestPlatform;
let owner: Cli;
let pageId: string;
const page = () => p.get(`/v1/orgs/${p.org.orgId}/pages/${pageId}`);

beforeAll(async () => {
  p = await pagesPlatform('cli-page-history');
  owner = new Cli();
  expect((await owner.run(['login', '--url', p.baseUrl, '--token', p.owner.token])).code).toBe(0);
  const made = await p.post(`/v1/orgs/${p.org.orgId}/pages`, { title: 'Runbook', content: '# Runbook\n' });
  pageId = made.body.page.pageId;
  for (const content of ['# Runbook\n\nRestart.\n', '# Runbook\n\nRestart, then check.\n']) {
    expect((await p.put(`/v1/orgs/${p.org.orgId}/pages/${pageId}/content`, { content })).status).toBe(200);
  }
}, 120_000);
afterAll(() => p.close());

test('history lists the versions newest first; --show prints one; --limit says there are more', async () => {
  const res = await owner.run(['page', 'history', pageId]);
  expect(res.stderr).toBe('');
  expect(res.code).toBe(0);
  // Piped: no header, every cell whole, tab-separated (VERSION, SAVED, BY, SIZE, TITLE, NOTE).
  const rows = res.stdout.replace(/\n$/, '').split('\n');
  expect(rows.map((r) => r.split('\t').filter((_, i) => i !== 1))).toEqual([
    ['3', 'Test owner', '32 chars', 'Runbook', 'current'],
    ['2', 'Test owner', '20 chars', 'Runbook', ''],
    ['1', 'Test owner', '10 chars', 'Runbook', ''],
  ]);
  expect(rows[0]?.split('\t')[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);

  const shown = await owner.run(['page', 'history', pageId, '--show', '2']);
  expect(shown).toEqual({ code: 0, stdout: '# Runbook\n\nRestart.\n', stderr: '' });

  const limited = await owner.run(['page', 'history', pageId, '--limit', '2']);
  expect(limited.stdout.trimEnd().split('\n')).toHaveLength(3);
  expect(limited.stdout).toContain('Older versions: raise --limit (showing 2).');

  const json = JSON.parse((await owner.run(['page', 'history', pageId, '--json'])).stdout);
  expect(json.versions.map((v: { n: number }) => v.n)).toEqual([3, 2, 1]);
  expect(json.contentVersion).toBe(3);
});

test('restore brings back an earlier version as a new one; stale and unknown versions are refused', async () => {
  const res = await owner.run(['page', 'restore', pageId, '1', '--base-version', '3']);
  expect(res).toEqual({ code: 0, stdout: `Restored version 1 of Runbook (${pageId}) as version 4.\n`, stderr: '' });
  const now = await page();
  expect(now.body.content).toBe('# Runbook\n');
  expect(now.body.page.contentVersion).toBe(4);
  const history = await owner.run(['page', 'history', pageId]);
  expect(history.stdout.split('\n')[0]?.split('\t').slice(-1)).toEqual(['current, restored from 1']);

  const stale = await owner.run(['page', 'restore', pageId, '2', '--base-version', '3']);
  expect(stale.code).toBe(1);
  expect(stale.stderr).toContain('The content changed since you loaded it.');
  const unknown = await owner.run(['page', 'restore', pageId, '42']);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('Version not found');
  expect((await page()).body.page.contentVersion).toBe(4);
});

test('usage errors are caught before any request', async () => {
  const bad = await owner.run(['page', 'restore', pageId, 'two']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/two is not a number/);
  const missing = await owner.run(['page', 'restore', pageId]);
  expect(missing.code).toBe(2);
  const limit = await owner.run(['page', 'history', pageId, '--limit', '0']);
  expect(limit.code).toBe(2);
  expect(limit.stderr).toMatch(/--limit takes a whole number from 1 to 1000/);
});
