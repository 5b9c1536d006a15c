import { newId } from '../../shared/kernel/store/ids';
import { TestPlatform } from '../helpers/platform';
import { putRecord } from '../helpers/records';
import { newProject } from './helpers';

/**
 * The deployments list's pages end with `cursor: null`: a page that is exactly full is the last
 * one when nothing follows it (never a cursor to an empty page), organization-wide and per
 * project, with filters and without. This file's organization holds only these deployments.
 */
let p: TestPlatform;
let projectId: string;
/** Oldest first. */
const ids: string[] = [];

beforeAll(async () => {
  p = await TestPlatform.start();
  ({ projectId } = await newProject(p, 'static'));
  for (const fields of [
    { target: 'preview', status: 'ready', branch: 'main' },
    { target: 'production', status: 'error', branch: 'main' },
    { target: 'preview', status: 'ready', branch: 'feature' },
    { target: 'production', status: 'ready', branch: 'main' },
  ]) {
    const deploymentId = newId('dpl_');
    await putRecord(p.org.orgId, `DPL#${deploymentId}`, {
      deploymentId,
      orgId: p.org.orgId,
      projectId,
      location: 'fra',
      createdAt: Date.now(),
      gsi1pk: `PRJ#${projectId}`,
      gsi1sk: `DPL#${deploymentId}`,
      version: 1,
      ...fields,
    });
    ids.push(deploymentId);
  }
});
afterAll(async () => {
  await p?.close();
});

/** Every page of a listing: its ids and cursor. */
async function pages(query: string): Promise<{ ids: string[]; cursor: string | null }[]> {
  const out: { ids: string[]; cursor: string | null }[] = [];
  let cursor: string | null = null;
  do {
    const q: string = `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await p.get(`/v1/orgs/${p.org.orgId}/deployments?${q}`);
    expect(res.status).toBe(200);
    cursor = res.body.cursor;
    out.push({ ids: res.body.deployments.map((d: { deploymentId: string }) => d.deploymentId), cursor });
  } while (cursor && out.length < 10);
  return out;
}

/** Indexes into `ids`, read when a test runs (ids are written in beforeAll). */
const newest = (...i: number[]) => i;

describe('GET .../deployments: the last page has cursor null', () => {
  it.each([
    ['organization-wide, one full page', 'limit=4', [newest(3, 2, 1, 0)]],
    ['organization-wide, two full pages', 'limit=2', [newest(3, 2), newest(1, 0)]],
    ['per project, one full page', `projectId=PRJ&limit=4`, [newest(3, 2, 1, 0)]],
    ['per project, two full pages', `projectId=PRJ&limit=2`, [newest(3, 2), newest(1, 0)]],
    ['filtered, one full page', 'status=ready&limit=3', [newest(3, 2, 0)]],
    ['filtered per project, one full page', 'projectId=PRJ&target=production&limit=2', [newest(3, 1)]],
    [
      'filtered per project, full pages of one',
      'projectId=PRJ&branch=main&status=ready&limit=1',
      [newest(3), newest(0)],
    ],
  ])('%s', async (_name, query, expected) => {
    const got = await pages(query.replace('PRJ', projectId));
    expect(got.map((page) => page.ids)).toEqual(expected.map((page) => page.map((i) => ids[i])));
    expect(got.at(-1)?.cursor).toBeNull();
    // Every page before the last has a cursor; none is empty.
    expect(got.slice(0, -1).every((page) => typeof page.cursor === 'string')).toBe(true);
    expect(got.every((page) => page.ids.length > 0)).toBe(true);
  });

  it('a page shorter than the limit is the last', async () => {
    const got = await pages(`projectId=${projectId}&limit=3`);
    expect(got.map((page) => page.ids)).toEqual([newest(3, 2, 1), newest(0)].map((page) => page.map((i) => ids[i])));
    expect(got.at(-1)?.cursor).toBeNull();
  });
});
