import type { Page } from 'playwright-core';
import { storage } from '../../shared/ports/object-storage';
import { axe, newPage, showingPage, signIn, startWeb, type WebWorld } from './harness';

/**
 * The pages area (`/orgs/:orgId/pages`) in Chromium: a page created and edited twice in the
 * Markdown editor (its preview beside it), a stale save resolved, its history with the author and
 * time of each version, a diff of version 1 against 3 (lines marked + and −, and said so), an
 * earlier version restored (the content checked through the API); the tree (a subpage, expand and
 * collapse and open by keyboard, a move); favorites; search. Each page checked with axe at 1440
 * and 375 px (nothing wider than the screen) and for console errors.
 */
let w: WebWorld;
let page: Page;
let problems: string[];
let orgId = '';
let pageId = '';
const api = () => `/v1/orgs/${orgId}/pages`;

beforeAll(async () => {
  // Page content lives in the artifacts bucket: this file's own (as test/pages/platform.ts makes it).
  process.env.ARTIFACTS_BUCKET = `wiki-web-${Date.now().toString(36)}`;
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  w = await startWeb({ deployments: false });
  orgId = w.p.org.orgId;
  ({ page, problems } = await newPage(await w.browser.newContext({ viewport: { width: 1440, height: 900 } })));
  await page.goto(`${w.app}orgs/${orgId}/pages`);
  await signIn(page, w.p.owner);
}, 180_000);
afterAll(async () => {
  await w?.close();
});

/** A failed step shows what the page said (test/web/harness.ts). */
const shown = (steps: () => Promise<void>) => showingPage(() => page, steps);

/** axe at 1440 px and at 375 px, where nothing may be wider than the screen; no console error. */
async function clean() {
  expect(await axe(page)).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  // Nothing wider than the screen (and, when something is, which elements reach past it).
  const wide = await page.evaluate(() => {
    const doc = (globalThis as any).document;
    const past = [...doc.querySelectorAll('body *')]
      .filter((el: any) => el.getBoundingClientRect().right > 376)
      .filter((el: any) => {
        for (let up = el.parentElement; up; up = up.parentElement) {
          if (/auto|scroll|hidden/.test((globalThis as any).getComputedStyle(up).overflowX)) return false;
        }
        return true;
      })
      .slice(-5)
      .map((el: any) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)}`);
    return { width: doc.documentElement.scrollWidth as number, past };
  });
  expect(wide.width <= 375 ? [] : wide.past).toEqual([]);
  expect(await axe(page)).toEqual([]);
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(problems).toEqual([]);
}

const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const editor = () => page.getByRole('textbox', { name: 'Content (Markdown)' });

async function saveInEditor(text: string) {
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await heading('Edit Handbook').waitFor();
  await editor().fill(text);
  await page.getByRole('button', { name: 'Save' }).click();
  await heading('Handbook').waitFor();
}

test(
  'create a page, edit it twice with a preview, resolve a stale save, diff 1 against 3, restore version 2',
  shown(async () => {
    await heading('Pages').waitFor();
    await clean();
    await page.getByRole('textbox', { name: 'Title of the new page' }).fill('Handbook');
    await page.getByRole('button', { name: 'Create page' }).click();
    await heading('Edit Handbook').waitFor();
    pageId = /\/pages\/(pg_\w+)\/edit$/.exec(page.url())?.[1] as string;
    expect(pageId).toMatch(/^pg_/);
    // The preview follows what is typed.
    await editor().fill('# Welcome\n\nFirst line.\n');
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByRole('heading', { name: 'Welcome' }).waitFor();
    await clean();
    await page.getByRole('button', { name: 'Save' }).click();
    await heading('Handbook').waitFor();
    await page.getByRole('article').getByRole('heading', { name: 'Welcome' }).waitFor();
    await clean();

    await saveInEditor('# Welcome\n\nFirst line, edited.\n\nSecond line.\n');
    const saved = await w.p.get(`${api()}/${pageId}`);
    expect(saved.body.page.contentVersion).toBe(3);
    expect(saved.body.content).toBe('# Welcome\n\nFirst line, edited.\n\nSecond line.\n');

    // Someone saves while the editor is open: the save is refused, and the person chooses.
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await heading('Edit Handbook').waitFor();
    await w.p.put(`${api()}/${pageId}/content`, { content: 'Theirs.\n' });
    await editor().fill('Mine.\n');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'The content changed since you loaded it' }).waitFor();
    await page.getByRole('button', { name: 'Load their version (discard mine)' }).click();
    await page.waitForFunction(() => (globalThis as any).document.querySelector('textarea')?.value === 'Theirs.\n');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await heading('Handbook').waitFor();

    // History: each version with its author and time.
    await page.getByRole('link', { name: 'History' }).click();
    await heading('History of Handbook').waitFor();
    const rows = page.getByRole('table').getByRole('row');
    await rows.filter({ hasText: /^4/ }).first().waitFor();
    expect(await rows.count()).toBe(5);
    for (const n of ['1', '2', '3']) {
      const row = page.getByRole('row', { name: new RegExp(`^${n}\\b`) });
      await row
        .getByRole('cell')
        .nth(1)
        .filter({ hasText: w.p.owner.email.split('@')[0] })
        .or(row.getByRole('cell').nth(1).filter({ hasText: 'Test owner' }))
        .first()
        .waitFor();
    }
    await clean();
    await page.getByRole('combobox', { name: 'Compare version' }).selectOption('1');
    await page.getByRole('combobox', { name: 'with version' }).selectOption('3');
    const changes = page.getByRole('list', { name: 'Changes from version 1 to version 3' });
    await changes.waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: 'From version 1 to version 3: 5 lines added, 0 lines removed.' })
      .waitFor();
    expect(await changes.getByRole('listitem').filter({ hasText: 'Added: Second line.' }).count()).toBe(1);
    await page.getByRole('combobox', { name: 'Compare version' }).selectOption('2');
    await page.getByRole('list', { name: 'Changes from version 2 to version 3' }).waitFor();
    const removedLine = page.getByRole('listitem').filter({ hasText: 'Removed: First line.' });
    await removedLine.waitFor();
    // Marked by more than colour: a − sign and a struck-through line.
    expect(await removedLine.locator('del').textContent()).toBe('First line.');
    expect(await removedLine.textContent()).toContain('−');
    await clean();

    await page.getByRole('button', { name: 'Restore version 2' }).click();
    await page.getByRole('group', { name: /Restore version 2\?/ }).waitFor();
    await page.getByRole('button', { name: 'Restore version 2', exact: true }).last().click();
    await page.getByRole('status').filter({ hasText: 'Restored version 2 as version 5.' }).waitFor();
    const now = await w.p.get(`${api()}/${pageId}`);
    expect(now.body.content).toBe('# Welcome\n\nFirst line.\n');
    expect(now.body.page.contentVersion).toBe(5);
    const versions = await w.p.get(`${api()}/${pageId}/versions`);
    expect(versions.body.versions[0]).toMatchObject({ n: 5, restoredFrom: 2 });
    await page.getByRole('row', { name: /^5 \(current\) restored from 2 / }).waitFor();
    await clean();
  }),
  240_000,
);

test(
  'the tree: a subpage, opened and closed and followed by keyboard, then moved out by a button',
  shown(async () => {
    await page.goto(`${w.app}orgs/${orgId}/pages/${pageId}`);
    await heading('Handbook').waitFor();
    await page.getByRole('textbox', { name: 'Title of the subpage' }).fill('Onboarding');
    await page.getByRole('button', { name: 'Create subpage' }).click();
    await heading('Edit Onboarding').waitFor();
    const childId = /\/pages\/(pg_\w+)\/edit$/.exec(page.url())?.[1] as string;
    await page.goto(`${w.app}orgs/${orgId}/pages/${pageId}`);
    await heading('Handbook').waitFor();
    const tree = page.getByRole('tree', { name: 'Pages' });
    const parent = tree.getByRole('treeitem', { name: 'Handbook', exact: true });
    await parent.waitFor();
    expect(await parent.getAttribute('aria-current')).toBe('page');
    await parent.focus();
    await page.keyboard.press('ArrowRight');
    await parent.and(page.locator('[aria-expanded="true"]')).waitFor();
    const child = tree.getByRole('treeitem', { name: 'Onboarding', exact: true });
    await child.waitFor();
    expect(await child.getAttribute('aria-level')).toBe('2');
    await page.keyboard.press('ArrowLeft');
    await parent.and(page.locator('[aria-expanded="false"]')).waitFor();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await child.evaluate((el) => el === (globalThis as any).document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await heading('Onboarding').waitFor();
    expect(page.url()).toContain(`/pages/${childId}`);
    await clean();
    await page.getByRole('button', { name: 'Outdent (beside its parent)' }).click();
    await page.getByRole('status').filter({ hasText: 'Moved Onboarding out one level.' }).waitFor();
    const moved = await w.p.get(`${api()}/${childId}`);
    expect(moved.body.page.parentId).toBeNull();
    const top = await w.p.get(api());
    const ids = top.body.pages.map((p: { pageId: string }) => p.pageId);
    expect(ids.indexOf(childId)).toBe(ids.indexOf(pageId) + 1);
    await tree
      .getByRole('treeitem', { name: 'Onboarding', exact: true })
      .and(page.locator('[aria-level="1"]'))
      .waitFor();
  }),
);

test(
  'favorites: star a page, find it in the list, unstar it',
  shown(async () => {
    await page.goto(`${w.app}orgs/${orgId}/pages/${pageId}`);
    await heading('Handbook').waitFor();
    const star = page.getByRole('button', { name: 'Favorite: Handbook' });
    expect(await star.getAttribute('aria-pressed')).toBe('false');
    await star.click();
    await star.and(page.locator('[aria-pressed="true"]')).waitFor();
    const favs = await w.p.get(`/v1/orgs/${orgId}/favorites`);
    expect(favs.body.favorites.map((f: { page: { pageId: string } }) => f.page.pageId)).toEqual([pageId]);
    await page.getByRole('link', { name: 'Favorites' }).click();
    await heading('Favorite pages').waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Handbook' }).waitFor();
    await clean();
    await page.getByRole('main').getByRole('link', { name: 'Handbook' }).click();
    await heading('Handbook').waitFor();
    await star.click();
    await star.and(page.locator('[aria-pressed="false"]')).waitFor();
    expect((await w.p.get(`/v1/orgs/${orgId}/favorites`)).body.favorites).toEqual([]);
  }),
  180_000,
);

test(
  'search: the words of a page find it, with the matched word marked',
  shown(async () => {
    await w.p.put(`${api()}/${pageId}/content`, { content: '# Welcome\n\nThe deployment checklist lives here.\n' });
    await page.goto(`${w.app}orgs/${orgId}/pages`);
    await heading('Pages').waitFor();
    await page.getByRole('searchbox', { name: 'Search pages' }).fill('checklist');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await heading('Pages matching “checklist”').waitFor();
    const results = page.getByRole('list', { name: 'Results' });
    await results.getByRole('link', { name: 'Handbook' }).waitFor();
    expect(await results.locator('mark').first().textContent()).toBe('checklist');
    await clean();
    await page.getByRole('searchbox', { name: 'Search pages' }).fill('nothingmatchesthis');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'No page matches “nothingmatchesthis”.' }).waitFor();
  }),
  180_000,
);
