import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { ISSUE_TYPES, PRIORITIES, RESOLUTIONS, STATUSES, WORKFLOWS } from '../../shared/domains/tracker/catalog';
import { SYSTEM_FIELDS, systemField } from '../../shared/domains/tracker/jql';
import { LINK_TYPES } from '../../shared/domains/tracker/parts';
import { storage } from '../../shared/ports/object-storage';
import * as web from '../../web/src/pages/issues/catalog';
import { complete, JQL_FIELDS, ORDER_FIELDS } from '../../web/src/pages/issues/jql';
import { checkPage, newPage, showingPage, signIn, startWeb, type WebWorld } from './harness';

/**
 * The tracker's issue page, JQL search and bulk change in Chromium: an issue's fields edited in
 * place (summary, priority, labels, components, fix versions, assignee, status through a
 * transition), comments added, edited and deleted, work logged, two issues linked, a file attached
 * through the API's presigned link and downloaded back; JQL completion by keyboard (a field, an
 * operator, a value), the API's parse errors at the field, results sorted; a bulk transition and
 * assignment with each issue's outcome; the create-issue form. Each outcome is read back through
 * the API; each page checked with axe-core at 1440 and 375 px and for console errors.
 */
let w: WebWorld;
let page: Page;
let problems: string[];
let base = '';
let app = '';

beforeAll(async () => {
  // Attachments go to the artifacts bucket (with the platform's CORS rule for browser uploads).
  process.env.ARTIFACTS_BUCKET = `web-issues-${Date.now().toString(36)}`;
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  w = await startWeb({ deployments: false });
  base = `/v1/orgs/${w.p.org.orgId}/issues`;
  app = `${w.app}orgs/${w.p.org.orgId}/tracker`;
  const made = await w.p.post(`${base}/spaces`, { key: 'WEB', name: 'Website', template: 'scrum' });
  expect(made.status).toBe(201);
  expect((await w.p.post(`${base}/spaces/WEB/components`, { name: 'Checkout' })).status).toBe(201);
  expect((await w.p.post(`${base}/spaces/WEB/versions`, { name: '1.0' })).status).toBe(201);
  for (const [summary, labels] of [
    ['Pay by card', []],
    ['Card form crashes', []],
    ['Bulk one', ['bulk']],
    ['Bulk two', ['bulk']],
    ['Bulk three', ['bulk']],
  ] as const) {
    const issue = await w.p.post(base, { space: 'WEB', summary, labels });
    expect(issue.status).toBe(201);
  }
  ({ page, problems } = await newPage(await w.browser.newContext({ viewport: { width: 1440, height: 900 } })));
  await page.goto(`${app}/search`);
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
const issue = async (key: string) => (await w.p.get(`${base}/${key}`)).body;
const edit = (field: string) => page.getByRole('button', { name: new RegExp(`^Edit ${field}:`) });
const save = () => page.getByRole('button', { name: 'Save', exact: true }).click();

test('the web copy of the catalog and of the JQL fields is the API’s', () => {
  const pick = (list: { id: string; name: string }[]) => list.map(({ id, name }) => ({ id, name }));
  expect(web.STATUSES).toEqual(STATUSES);
  expect(pick(web.ISSUE_TYPES)).toEqual(pick(ISSUE_TYPES));
  expect(web.PRIORITIES).toEqual(PRIORITIES);
  expect(web.RESOLUTIONS).toEqual(RESOLUTIONS);
  expect(web.WORKFLOW_STATUSES).toEqual(Object.fromEntries(WORKFLOWS.map((wf) => [wf.id, wf.statuses])));
  expect(web.LINK_TYPES).toEqual(LINK_TYPES);
  expect([...JQL_FIELDS.map((f) => f.name), 'rank'].sort()).toEqual([...SYSTEM_FIELDS].sort());
  expect(ORDER_FIELDS.every((f) => systemField(f))).toBe(true);
  // Operators the completion offers are the ones compile.ts accepts for each kind of field.
  for (const f of JQL_FIELDS) {
    const def = systemField(f.name);
    const kind = def?.kind === 'ids' ? (def.ranked ? 'ranked' : def.history ? 'history' : 'ids') : def?.kind;
    expect([f.name, f.kind]).toEqual([f.name, kind]);
  }
  const none = () => [];
  expect(complete('pri', 3, none).items.map((s) => s.label)).toEqual(['priority']);
  expect(complete('priority ', 9, none).items.map((s) => s.label)).toContain('>=');
  expect(complete('summary ', 8, none).items.map((s) => s.label)).toEqual(['~', '!~', 'IS', 'IS NOT']);
  const statuses = () => [{ value: 'In Progress', kind: 'status' }];
  expect(complete('status = in pro', 15, statuses)).toMatchObject({ from: 9, items: [{ insert: '"In Progress"' }] });
  expect(complete('status IN (', 11, () => [{ value: 'To Do', kind: 'status' }]).items[0]?.insert).toBe('"To Do"');
});

test(
  'the issue page: fields edited in place, a transition, comments, work, links',
  shown(async () => {
    await page.goto(`${app}/issues/WEB-1`);
    await h1(/Pay by card/).waitFor();

    // Summary: the value is a button; Enter opens it, Save writes it.
    await edit('Summary').click();
    await page.getByRole('textbox', { name: 'Summary' }).fill('Pay by card in one step');
    await save();
    await h1(/Pay by card in one step/).waitFor();
    // Escape leaves a field as it was, focus back on its value.
    await edit('Description').click();
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('never saved');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() =>
      (globalThis as any).document.activeElement?.textContent?.startsWith('Edit Description:'),
    );

    await edit('Priority').click();
    await page.getByRole('combobox', { name: 'Priority' }).selectOption({ label: 'High' });
    await save();
    await edit('Priority').filter({ hasText: 'High' }).waitFor();

    await edit('Assignee').click();
    await page.getByRole('combobox', { name: 'Assignee' }).selectOption({ label: 'Test owner' });
    await save();
    await edit('Assignee').filter({ hasText: 'Test owner' }).waitFor();

    await edit('Labels').click();
    await page.getByRole('combobox', { name: 'Labels' }).fill('payments, checkout');
    await save();
    await edit('Labels').filter({ hasText: 'checkout' }).waitFor();

    await edit('Components').click();
    await page.getByRole('checkbox', { name: 'Checkout' }).check();
    await save();
    await edit('Components').filter({ hasText: 'Checkout' }).waitFor();

    await edit('Fix versions').click();
    await page.getByRole('checkbox', { name: '1.0' }).check();
    await save();
    await edit('Fix versions').filter({ hasText: '1.0' }).waitFor();

    // A parent that does not exist: the API's message where the person acted.
    await edit('Parent').click();
    await page.getByRole('textbox', { name: 'Parent' }).fill('WEB-999');
    await save();
    await page
      .getByRole('alert')
      .filter({ hasText: /WEB-999|parent/i })
      .waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();

    // Status: the transitions the API offers.
    await page.getByRole('combobox', { name: 'Transition' }).selectOption({ label: '→ In Progress' });
    await page.getByRole('button', { name: 'Move' }).click();
    await page.getByText('changed Status from To Do to In Progress').waitFor();

    // Comments: add two, edit one, delete the other.
    for (const text of ['First thoughts', 'A second comment']) {
      await page.getByRole('textbox', { name: 'Add a comment' }).fill(text);
      await page.getByRole('button', { name: 'Comment', exact: true }).click();
      await page.getByRole('region', { name: 'Comments' }).getByRole('listitem').filter({ hasText: text }).waitFor();
    }
    await page
      .getByRole('button', { name: /^Edit comment by/ })
      .first()
      .click();
    await page.getByRole('textbox', { name: 'Edit comment' }).fill('First thoughts, revised');
    await save();
    await page.getByText('First thoughts, revised').waitFor();
    await page
      .getByRole('button', { name: /^Delete comment by/ })
      .last()
      .click();
    await page.getByText('A second comment').waitFor({ state: 'detached' });

    // Work: 1h 30m logged.
    await page.getByRole('textbox', { name: 'Time spent' }).fill('1h 30m');
    await page.getByRole('textbox', { name: 'Work description' }).fill('Wired the form');
    await page.getByRole('button', { name: 'Log work' }).click();
    await page.getByText('Wired the form').waitFor();
    await page.getByText('1h 30m logged').waitFor();

    // A bad time: the API's message.
    await page.getByRole('textbox', { name: 'Time spent' }).fill('soon');
    await page.getByRole('button', { name: 'Log work' }).click();
    await page.getByRole('alert').filter({ hasText: 'timeSpent' }).waitFor();
    await page.getByRole('textbox', { name: 'Time spent' }).fill('');

    // Link: this issue blocks WEB-2.
    await page.getByRole('combobox', { name: 'This issue' }).selectOption({ label: 'blocks' });
    await page.getByRole('textbox', { name: 'Issue', exact: true }).fill('WEB-2');
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    await page.getByRole('button', { name: 'Remove link: blocks WEB-2' }).waitFor();

    // Everything, as the API has it.
    const now = await issue('WEB-1');
    const space = (await w.p.get(`${base}/spaces/WEB`)).body;
    expect(now.issue).toMatchObject({
      summary: 'Pay by card in one step',
      priorityId: 'high',
      assigneeId: w.p.owner.userId,
      labels: ['payments', 'checkout'],
      componentIds: [space.components[0].componentId],
      fixVersionIds: [space.versions[0].versionId],
      statusId: 'inprogress',
      timeSpent: 5400,
    });
    expect(now.description).toBe('');
    expect(now.comments.map((c: { body: string }) => c.body)).toEqual(['First thoughts, revised']);
    expect(now.worklogs).toHaveLength(1);
    expect(
      (await issue('WEB-2')).links.map((l: { label: string; issue: { key: string } }) => [l.label, l.issue.key]),
    ).toEqual([['is blocked by', 'WEB-1']]);
    await clean();

    // Removing the link.
    await page.getByRole('button', { name: 'Remove link: blocks WEB-2' }).click();
    await page.getByText('No linked issues.').waitFor();
    expect((await issue('WEB-1')).links).toEqual([]);
  }),
  120_000,
);

/**
 * The file goes between the browser and storage directly: the app's CSP names the storage origin
 * (lib/local/web.ts) and the S3 gate answers the browser's preflight of a presigned link.
 */
test(
  'an attachment goes up through the presigned link and comes back down',
  shown(async () => {
    const context = await w.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const own = await newPage(context);
    const tab = own.page;
    try {
      await tab.goto(`${app}/issues/WEB-2`);
      await signIn(tab, w.p.owner);
      await tab.getByRole('heading', { level: 1, name: /Card form crashes/ }).waitFor();
      // Attachment: started at the API, sent to the presigned link, completed; then downloaded.
      const content = `notes ${Date.now()}\n`;
      await tab.getByLabel('Attach files').setInputFiles({
        name: 'notes.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(content),
      });
      const attached = tab.getByRole('status').filter({ hasText: 'Attached notes.txt.' });
      const refused = tab.getByRole('region', { name: 'Attachments' }).getByRole('alert');
      await attached.or(refused).first().waitFor();
      expect([await refused.allTextContents(), own.problems]).toEqual([[], []]);
      const [download] = await Promise.all([
        tab.waitForEvent('download'),
        tab.getByRole('button', { name: 'Download notes.txt' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('notes.txt');
      expect(readFileSync((await download.path()) as string, 'utf8')).toBe(content);

      const now = await issue('WEB-2');
      expect(now.issue.attachmentCount).toBe(1);
      const link = await w.p.get(`${base}/WEB-2/attachments/${now.attachments[0].attachmentId}`);
      expect(await (await fetch(link.body.url)).text()).toBe(content);
      await tab.getByRole('button', { name: 'Delete notes.txt' }).click();
      await tab.getByText('No attachments.').waitFor();
      expect((await issue('WEB-2')).issue.attachmentCount).toBe(0);
      expect(own.problems).toEqual([]);
    } finally {
      await context.close();
    }
  }),
  120_000,
);

test(
  'JQL: completion by keyboard, the API’s errors at the field, results sorted and paged',
  shown(async () => {
    await page.goto(`${app}/search`);
    await h1('Search issues').waitFor();
    const query = page.getByRole('combobox', { name: 'Query (JQL)' });
    const option = (name: string) =>
      page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option', { name, exact: true });
    await query.click();
    await query.pressSequentially('sta');
    await option('status field').waitFor();
    await query.press('ArrowDown');
    await page.getByRole('option', { name: 'status field', selected: true }).waitFor();
    await query.press('Enter');
    expect(await query.inputValue()).toBe('status ');
    await option('= operator').waitFor();
    await query.press('ArrowDown');
    await query.press('Enter');
    expect(await query.inputValue()).toBe('status = ');
    await query.pressSequentially('in pro');
    await option('In Progress status').waitFor();
    await query.press('ArrowDown');
    await query.press('Enter');
    expect(await query.inputValue()).toBe('status = "In Progress" ');
    await option('AND keyword').waitFor();
    await query.press('Escape');
    await query.press('Enter');
    await page.getByRole('status').filter({ hasText: '1–1 of 1 issues' }).waitFor();
    await page.getByRole('link', { name: 'WEB-1' }).waitFor();

    // A syntax error and an unknown value: the API's own message, at the field.
    for (const bad of ['status = ', 'status = Nope']) {
      await query.fill(bad);
      await query.press('Escape');
      await query.press('Enter');
      const api = await w.p.get(`${base}?jql=${encodeURIComponent(bad)}`);
      expect(api.status).toBe(400);
      const alert = page.getByRole('alert').filter({ hasText: api.body.error });
      await alert.waitFor();
      expect(await query.getAttribute('aria-invalid')).toBe('true');
      expect(await query.getAttribute('aria-describedby')).toBe(await alert.getAttribute('id'));
    }
    await clean();

    // A good query: every issue of the space; a column header sorts (the query's ORDER BY).
    await query.fill('space = WEB ORDER BY key ASC');
    await query.press('Escape');
    await query.press('Enter');
    await page.getByRole('status').filter({ hasText: '1–5 of 5 issues' }).waitFor();
    expect(await query.getAttribute('aria-invalid')).toBeNull();
    await page.getByRole('row').nth(1).getByRole('link', { name: 'WEB-1' }).waitFor();
    await page.getByRole('columnheader', { name: 'Key' }).getByRole('button').click();
    await page.locator('th[aria-sort="descending"]').filter({ hasText: 'Key' }).waitFor();
    expect(await query.inputValue()).toBe('space = WEB ORDER BY key DESC');
    await page.getByRole('row').nth(1).getByRole('link', { name: 'WEB-5' }).waitFor();
    expect(problems).toEqual([]);
  }),
  120_000,
);

test(
  'bulk change: a transition and an assignment over the selected issues, each one’s outcome shown',
  shown(async () => {
    await page.goto(`${app}/search?jql=${encodeURIComponent('labels = bulk ORDER BY key')}`);
    await page.getByRole('status').filter({ hasText: '1–3 of 3 issues' }).waitFor();
    await page.getByRole('checkbox', { name: 'Select all issues on this page' }).check();
    await page.getByRole('heading', { name: 'Bulk change 3 issues' }).waitFor();
    await page.getByRole('combobox', { name: 'Operation' }).selectOption({ label: 'Transition' });
    await page.getByRole('combobox', { name: 'To status' }).selectOption({ label: 'Done' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('3 done, 0 failed.').waitFor();
    const outcome = page.getByRole('list', { name: 'Outcome per issue' });
    for (const key of ['WEB-3', 'WEB-4', 'WEB-5']) await outcome.getByText(`${key}: done`).waitFor();
    for (const key of ['WEB-3', 'WEB-4', 'WEB-5']) expect((await issue(key)).issue.statusId).toBe('done');

    // Two of them assigned; a third not selected keeps its assignee.
    await page.getByRole('checkbox', { name: 'Select all issues on this page' }).uncheck();
    await page.getByRole('checkbox', { name: 'Select WEB-3' }).check();
    await page.getByRole('checkbox', { name: 'Select WEB-4' }).check();
    await page.getByRole('combobox', { name: 'Operation' }).selectOption({ label: 'Assign' });
    await page.getByRole('combobox', { name: 'Assignee' }).selectOption({ label: 'Test owner' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('2 done, 0 failed.').waitFor();
    expect((await issue('WEB-3')).issue.assigneeId).toBe(w.p.owner.userId);
    expect((await issue('WEB-4')).issue.assigneeId).toBe(w.p.owner.userId);
    expect((await issue('WEB-5')).issue.assigneeId).toBeUndefined();
    await clean();
  }),
  120_000,
);

test(
  'the create-issue form takes every field and opens the new issue',
  shown(async () => {
    await page.goto(`${app}/issues/new`);
    await h1('Create issue').waitFor();
    await page.getByRole('combobox', { name: 'Issue type' }).selectOption({ label: 'Bug' });
    await page.getByRole('textbox', { name: 'Summary' }).fill('Totals round wrong');
    await page.getByRole('combobox', { name: 'Priority' }).selectOption({ label: 'Highest' });
    await page.getByRole('textbox', { name: 'Labels' }).fill('money');
    await page.getByRole('checkbox', { name: 'Checkout' }).check();
    await clean();
    await page.getByRole('button', { name: 'Create' }).click();
    await h1(/Totals round wrong/).waitFor();
    const key = /issues\/(WEB-\d+)/.exec(page.url())?.[1] as string;
    const made = (await issue(key)).issue;
    expect(made).toMatchObject({ typeId: 'bug', priorityId: 'highest', labels: ['money'] });
    expect(made.componentIds).toHaveLength(1);
    expect(problems).toEqual([]);
  }),
  120_000,
);
