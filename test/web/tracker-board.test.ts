import type { Locator, Page } from 'playwright-core';
import { checkPage, newPage, showingPage, signIn, startWeb, type WebWorld } from './harness';

/**
 * The tracker's spaces, boards and backlog in Chromium: a space and a board made through the
 * pages; cards moved across columns and within one with the mouse (drag and drop) and by keyboard
 * (a card's Move menu), each move checked through the API (status and rank); a move the workflow
 * refuses shown on the card, which goes back; a transition asking for a resolution asks for it;
 * swimlanes by assignee; a sprint planned (issues dragged and moved into it, ranked), started and
 * completed with its open issues carried over to the next sprint, checked through the API. Each
 * page is checked with axe-core at 1440 and 375 px (nothing wider than the screen) and for console
 * errors.
 */
let w: WebWorld;
let page: Page;
let problems: string[];
let orgId = '';
let base = '';
let scrumBoard = '';
let flowBoard = '';
const tag = Date.now().toString(36).slice(-4).toUpperCase();
const KEY = `W${tag}`.slice(0, 10);

beforeAll(async () => {
  w = await startWeb({ deployments: false });
  orgId = w.p.org.orgId;
  base = `/v1/orgs/${orgId}/issues`;
  ({ page, problems } = await newPage(await w.browser.newContext({ viewport: { width: 1440, height: 900 } })));
  // Each step fails with its own message well before the test's time is up.
  page.setDefaultTimeout(20_000);
  await page.goto(w.app);
  await signIn(page, w.p.owner);
}, 120_000);
afterAll(async () => {
  await w?.close();
});

/** A failed step shows what the page said (test/web/harness.ts). */
const shown = (steps: () => Promise<void>) => showingPage(() => page, steps);

/** axe at 1440 px and 375 px, nothing wider than the screen, no console error (test/web/harness.ts). */
const clean = () => checkPage(page, problems);

const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const status = () => page.getByRole('status').filter({ hasText: /\S/ });
const card = (key: string) => page.locator(`[data-card="${key}"]`);
const column = (name: string) => page.getByRole('list', { name, exact: true });

interface ApiIssue {
  key: string;
  statusId: string;
  rank: string;
  sprintId?: string;
}
const issue = async (key: string): Promise<ApiIssue> => {
  const res = await w.p.get(`${base}/${key}`);
  expect(res.status).toBe(200);
  return res.body.issue;
};
const create = async (space: string, summary: string, more: Record<string, unknown> = {}) => {
  const res = await w.p.post(base, { space, summary, ...more });
  expect(res.status).toBe(201);
  return res.body.issue as ApiIssue;
};

/**
 * Chooses `item` in the menu of `button` with the keyboard only: Enter opens it, the arrow keys
 * walk it, Enter chooses.
 */
async function chooseByKeyboard(button: Locator, item: string) {
  await button.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await menu.waitFor();
  for (let i = 0; i < 20; i++) {
    const focused = await page.evaluate(() => (globalThis as any).document.activeElement?.textContent ?? '');
    if (focused === item) {
      await page.keyboard.press('Enter');
      await menu.waitFor({ state: 'detached' });
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`no menu item ${item}`);
}

it(
  'spaces: a space made from a template and a board over it, through the pages',
  shown(async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Issues' }).click();
    await h1('Spaces and boards').waitFor();
    await page.getByText('No spaces yet').waitFor();
    await clean();
    const spaceForm = page.getByRole('region', { name: 'Create a space' });
    await spaceForm.getByRole('textbox', { name: 'Name' }).fill('Web team');
    // The key is suggested from the name (WT); this one is the run's own.
    expect(await spaceForm.getByRole('textbox', { name: 'Key' }).inputValue()).toBe('WT');
    await spaceForm.getByRole('textbox', { name: 'Key' }).fill(KEY);
    await spaceForm.getByRole('combobox', { name: 'Template' }).selectOption('scrum');
    await spaceForm.getByRole('button', { name: 'Create space' }).click();
    await h1(`${KEY} board: backlog`).waitFor();
    const space = (await w.p.get(`${base}/spaces/${KEY}`)).body.space;
    expect(space).toMatchObject({ name: 'Web team', template: 'scrum' });
    scrumBoard = space.config.boardId;
    expect(page.url()).toContain(`/tracker/boards/${scrumBoard}/backlog`);

    // A space key taken: the API's own message, beside the form.
    await page.getByRole('navigation', { name: 'Board views' }).getByRole('link', { name: 'Spaces' }).click();
    await h1('Spaces and boards').waitFor();
    await spaceForm.getByRole('textbox', { name: 'Name' }).fill('Again');
    await spaceForm.getByRole('textbox', { name: 'Key' }).fill(KEY);
    await spaceForm.getByRole('button', { name: 'Create space' }).click();
    const taken = await w.p.post(`${base}/spaces`, { key: KEY, name: 'Again', template: 'scrum' });
    expect(taken.status).toBe(409);
    expect(await spaceForm.getByRole('alert').textContent()).toContain(taken.body.error);

    const board = page.getByRole('region', { name: 'Create a board' });
    await board.getByRole('textbox', { name: 'Board name' }).fill('Flow');
    await board.getByRole('combobox', { name: 'Board type' }).selectOption('kanban');
    const shows = board.getByRole('checkbox', { name: `Web team (${KEY})` });
    await shows.focus();
    await page.keyboard.press('Space');
    expect(await shows.isChecked()).toBe(true);
    await board.getByRole('button', { name: 'Create board' }).click();
    await h1('Flow').waitFor();
    flowBoard = /boards\/(brd_[0-9a-z]+)/.exec(page.url())?.[1] ?? '';
    const made = (await w.p.get(`${base}/boards/${flowBoard}`)).body.board;
    expect(made).toMatchObject({ name: 'Flow', config: { type: 'kanban', spaceIds: [space.spaceId] } });
  }),
  180_000,
);

it(
  'board: a card dragged across columns and within one, and moved by keyboard, ranks and transitions through the API',
  shown(async () => {
    const a = await create(KEY, 'Pay by card');
    const b = await create(KEY, 'Refund an order');
    const c = await create(KEY, 'Send receipts', { priority: 'High', assignee: w.p.owner.email });
    expect((await w.p.post(`${base}/${b.key}/transitions`, { transition: 'In Progress' })).status).toBe(200);
    await page.goto(`${w.app}orgs/${orgId}/tracker/boards/${flowBoard}`);
    await h1('Flow').waitFor();
    await column('In Progress')
      .getByRole('link', { name: `${b.key}: Refund an order` })
      .waitFor();

    // Quick create: the new card lands in the first column.
    await page.getByRole('textbox', { name: 'What needs to be done?' }).fill('Export orders');
    await page.getByRole('button', { name: 'Create issue' }).click();
    await column('To Do')
      .getByRole('link', { name: /: Export orders$/ })
      .waitFor();
    const d = (await w.p.get(`${base}?jql=${encodeURIComponent(`space = ${KEY} AND summary ~ "Export orders"`)}`)).body
      .issues[0] as ApiIssue;
    expect(d.statusId).toBe('todo');
    await clean();

    // The mouse: A onto the upper half of B's card, in In Progress: transitioned, ranked before B.
    await card(a.key).dragTo(card(b.key), { targetPosition: { x: 40, y: 4 } });
    await status()
      .filter({ hasText: `${a.key} moved to In Progress.` })
      .waitFor();
    await column('In Progress')
      .getByRole('link', { name: `${a.key}: Pay by card` })
      .waitFor();
    const [movedA, stillB] = [await issue(a.key), await issue(b.key)];
    expect(movedA.statusId).toBe('inprogress');
    expect(movedA.rank < stillB.rank).toBe(true);
    const inProgress = column('In Progress').getByRole('link');
    expect(await inProgress.allTextContents()).toEqual(['Pay by card', 'Refund an order']);

    // Within a column: B dragged above A (ranked, no transition).
    await card(b.key).dragTo(card(a.key), { targetPosition: { x: 40, y: 4 } });
    await status()
      .filter({ hasText: `${b.key} ranked before ${a.key}.` })
      .waitFor();
    expect((await issue(b.key)).rank < (await issue(a.key)).rank).toBe(true);
    expect(await inProgress.allTextContents()).toEqual(['Refund an order', 'Pay by card']);

    // The keyboard: C's Move menu, to In Progress, then to the top of that column.
    const moveC = page.getByRole('button', { name: `Move ${c.key}` });
    await chooseByKeyboard(moveC, 'Move to In Progress');
    await status()
      .filter({ hasText: `${c.key} moved to In Progress.` })
      .waitFor();
    expect((await issue(c.key)).statusId).toBe('inprogress');
    // Focus stays with the card in its new column.
    await page.waitForFunction(
      (name) => (globalThis as any).document.activeElement?.getAttribute('aria-label') === name,
      `Move ${c.key}`,
    );
    await chooseByKeyboard(moveC, 'Top of column');
    await status()
      .filter({ hasText: `${c.key} ranked before` })
      .waitFor();
    const [rc, ra, rb] = [await issue(c.key), await issue(a.key), await issue(b.key)];
    expect(rc.rank < rb.rank && rb.rank < ra.rank).toBe(true);
    expect(await inProgress.allTextContents()).toEqual(['Send receipts', 'Refund an order', 'Pay by card']);

    // Swimlanes by assignee: C under its assignee, the others unassigned.
    await page.getByRole('combobox', { name: 'Swimlanes' }).selectOption('assignee');
    const unassigned = page.getByRole('region', { name: 'Unassigned' });
    await unassigned.getByRole('link', { name: `${a.key}: Pay by card` }).waitFor();
    expect(await unassigned.getByRole('link', { name: `${c.key}: Send receipts` }).count()).toBe(0);
    await page
      .getByRole('region', { name: 'Test owner' })
      .getByRole('link', { name: `${c.key}: Send receipts` })
      .waitFor();
    expect(page.url()).toContain('lanes=assignee');
    await clean();
    await page.getByRole('combobox', { name: 'Swimlanes' }).selectOption('none');

    // A card opens its issue page.
    await page.getByRole('link', { name: `${d.key}: Export orders` }).click();
    await page.waitForURL((u) => u.pathname.endsWith(`/tracker/issues/${d.key}`));
  }),
  180_000,
);

it(
  'board: a move the workflow refuses shows its answer on the card, which goes back; a transition asking for a resolution asks',
  shown(async () => {
    const bugs = await w.p.post(`${base}/spaces`, { key: `B${tag}`.slice(0, 10), name: 'Bugs', template: 'bugs' });
    expect(bugs.status).toBe(201);
    const board = bugs.body.space.config.boardId as string;
    const bug = await create(bugs.body.space.key, 'Crash on start');
    await page.goto(`${w.app}orgs/${orgId}/tracker/boards/${board}`);
    await column('Open')
      .getByRole('link', { name: `${bug.key}: Crash on start` })
      .waitFor();

    // Open to Reopened: the Jira workflow has no such transition.
    await card(bug.key).dragTo(column('Reopened'));
    const refused = card(bug.key).getByRole('alert');
    await refused.waitFor();
    const answer = await w.p.post(`${base}/boards/${board}/move`, { issue: bug.key, columnId: 'reopened' });
    expect(answer.status).toBe(409);
    expect(await refused.textContent()).toContain(answer.body.error);
    await column('Open')
      .getByRole('link', { name: `${bug.key}: Crash on start` })
      .waitFor();
    expect(await column('Reopened').getByRole('listitem').count()).toBe(0);
    expect((await issue(bug.key)).statusId).toBe('open');
    await clean();

    // Open to Resolved by keyboard: its screen asks for a resolution.
    await chooseByKeyboard(page.getByRole('button', { name: `Move ${bug.key}` }), 'Move to Resolved');
    const dialog = page.getByRole('dialog', { name: `Move ${bug.key} to Resolved` });
    await dialog.getByRole('combobox', { name: 'Resolution' }).selectOption('wont-do');
    await dialog.getByRole('button', { name: 'Move' }).press('Enter');
    await status()
      .filter({ hasText: `${bug.key} moved to Resolved.` })
      .waitFor();
    const resolved = (await w.p.get(`${base}/${bug.key}`)).body.issue;
    expect(resolved).toMatchObject({ statusId: 'resolved', resolutionId: 'wont-do' });
    expect(problems).toEqual([]);
  }),
  180_000,
);

it(
  'backlog: a sprint planned, started and completed with its open issues carried to the next sprint',
  shown(async () => {
    const s1 = await create(KEY, 'Checkout page', { storyPoints: 3 });
    const s2 = await create(KEY, 'Order history', { storyPoints: 5 });
    await page.goto(`${w.app}orgs/${orgId}/tracker/boards/${scrumBoard}/backlog`);
    await h1(`${KEY} board: backlog`).waitFor();
    await page
      .getByRole('list', { name: 'Issues in Backlog' })
      .getByRole('link', { name: `${s2.key}: Order history` })
      .waitFor();

    await page.getByRole('button', { name: 'Create sprint' }).click();
    const first = `${KEY} Sprint 1`;
    const sprintList = page.getByRole('list', { name: `Issues in ${first}` });
    await sprintList.waitFor();
    const sprintId = (await w.p.get(`${base}/boards/${scrumBoard}/sprints`)).body.sprints[0].sprintId as string;
    await clean();

    // Into the sprint: one dragged, one by its Move menu; then ranked by keyboard.
    await card(s1.key).dragTo(sprintList);
    await status()
      .filter({ hasText: `${s1.key} moved to ${first}.` })
      .waitFor();
    await chooseByKeyboard(page.getByRole('button', { name: `Move ${s2.key}` }), `Move to ${first}`);
    await status()
      .filter({ hasText: `${s2.key} moved to ${first}.` })
      .waitFor();
    expect((await issue(s1.key)).sprintId).toBe(sprintId);
    expect((await issue(s2.key)).sprintId).toBe(sprintId);
    await chooseByKeyboard(page.getByRole('button', { name: `Move ${s2.key}` }), 'Top');
    await status()
      .filter({ hasText: `${s2.key} ranked before ${s1.key}.` })
      .waitFor();
    expect((await issue(s2.key)).rank < (await issue(s1.key)).rank).toBe(true);
    expect(await sprintList.getByRole('link').allTextContents()).toEqual(['Order history', 'Checkout page']);

    // Start it.
    await page.getByRole('button', { name: 'Start sprint' }).click();
    const start = page.getByRole('form', { name: `Start ${first}` });
    await start.getByRole('textbox', { name: 'Sprint goal' }).fill('Take payments');
    await start.getByRole('button', { name: 'Start' }).click();
    await status()
      .filter({ hasText: `${first} started.` })
      .waitFor();
    const active = (await w.p.get(`${base}/sprints/${sprintId}`)).body.sprint;
    expect(active).toMatchObject({ state: 'active', goal: 'Take payments' });
    expect(active.endDate - active.startDate).toBe(14 * 86_400_000);

    // The board shows the active sprint; S1 finished there, by keyboard.
    await page.getByRole('navigation', { name: 'Board views' }).getByRole('link', { name: 'Active sprint' }).click();
    await h1(`${KEY} board`).waitFor();
    await page.getByText('Goal: Take payments').waitFor();
    await chooseByKeyboard(page.getByRole('button', { name: `Move ${s1.key}` }), 'Move to Done');
    await status()
      .filter({ hasText: `${s1.key} moved to Done.` })
      .waitFor();
    expect((await issue(s1.key)).statusId).toBe('done');
    await clean();

    // The next sprint, then complete the active one: S2 (open) carried over to it.
    await page.getByRole('navigation', { name: 'Board views' }).getByRole('link', { name: 'Backlog' }).click();
    await page.getByRole('button', { name: 'Create sprint' }).click();
    const second = `${KEY} Sprint 2`;
    await page.getByRole('list', { name: `Issues in ${second}` }).waitFor();
    const nextId = (await w.p.get(`${base}/boards/${scrumBoard}/sprints`)).body.sprints[1].sprintId as string;
    await page.getByRole('button', { name: 'Complete sprint' }).click();
    const complete = page.getByRole('form', { name: `Complete ${first}` });
    await complete.getByText('1 completed issue, 1 open issue.').waitFor();
    expect(await complete.getByRole('combobox', { name: 'Move open issues to' }).inputValue()).toBe(nextId);
    await complete.getByRole('button', { name: 'Complete sprint' }).click();
    await status()
      .filter({ hasText: `${first} completed: 1 done, 1 moved to ${second}.` })
      .waitFor();
    const closed = (await w.p.get(`${base}/sprints/${sprintId}`)).body.sprint;
    expect(closed.state).toBe('closed');
    expect(closed.data.report).toMatchObject({ completed: 1, incomplete: 1, carriedTo: nextId });
    expect((await issue(s2.key)).sprintId).toBe(nextId);
    await page
      .getByRole('list', { name: `Issues in ${second}` })
      .getByRole('link', { name: `${s2.key}: Order history` })
      .waitFor();
    const velocity = page.getByRole('region', { name: 'Velocity' });
    await velocity.getByRole('row', { name: `${first} 8 3` }).waitFor();
    await clean();
  }),
  180_000,
);
