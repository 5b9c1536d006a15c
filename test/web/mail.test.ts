import { readFileSync } from 'node:fs';
import { PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import AxeBuilder from '@axe-core/playwright';
import { createTransport } from 'nodemailer';
import type { BrowserContext, Page } from 'playwright-core';
import { type DnsServer, startDnsServer } from '../../lib/local/dns';
import { type SmtpServer, startSmtpServer } from '../../lib/local/smtp';
import { storage } from '../../shared/ports/object-storage';
import type { Person } from '../helpers/platform';
import { startQueueWorker } from '../helpers/sqs';
import { until } from '../helpers/until';
import { mailboxFor, unique } from '../mail/helpers';
import { newPage, signIn, startWeb, type WebWorld } from './harness';

/**
 * Mail in the web app, in Chromium, two people mailing each other through the local mail system
 * (its SMTP server and the mail-inbound worker, as `npm start` runs them): A composes to B with an
 * attachment, B finds it in the inbox, downloads the attachment and replies; A sees the reply in the
 * thread and forwards the original with its attachment to a third mailbox (checked through the
 * API); a draft typed and left is resumed from Drafts and sent (the draft then gone); an HTML
 * message's remote image is not requested until "Show images", and its script never runs; a label
 * applied from the list; a search. Each page checked with axe at 1440 and 375 px, no console error.
 */
let w: WebWorld;
let dns: DnsServer;
let smtp: SmtpServer;
let worker: { stop: () => Promise<void> };
let b: Person;
let boxA: { domain: string; address: string; mailboxId: string };
let boxB: { address: string; mailboxId: string };
let boxC: { address: string; mailboxId: string };
const contexts: BrowserContext[] = [];
let pageA: Page;
let pageB: Page;
let problemsA: string[];
let problemsB: string[];
const tag = Date.now().toString(36);
const subject = `Quarterly figures ${tag}`;
const fileBytes = Buffer.from(`figures,${tag}\nq1,10\nq2,20\n`);

beforeAll(async () => {
  // The mailboxes' objects in a bucket of this file, open to the browser's presigned uploads (CORS), as
  // `npm start` makes its buckets.
  process.env.ARTIFACTS_BUCKET = unique('webmail');
  await storage().createBucket(process.env.ARTIFACTS_BUCKET);
  const s3 = new S3Client({ endpoint: process.env.AWS_ENDPOINT_URL_S3, forcePathStyle: true });
  await s3.send(
    new PutBucketCorsCommand({
      Bucket: process.env.ARTIFACTS_BUCKET,
      CORSConfiguration: {
        CORSRules: [{ AllowedOrigins: ['*'], AllowedMethods: ['GET', 'PUT'], AllowedHeaders: ['*'] }],
      },
    }),
  );
  s3.destroy();
  dns = await startDnsServer({ port: 0 });
  process.env.DNS_SERVERS = `127.0.0.1:${dns.port}`;
  smtp = await startSmtpServer({ port: 0 });
  process.env.SMTP_PORT = String(smtp.port);
  worker = await startQueueWorker('mail-inbound');
  w = await startWeb({ deployments: false });
  b = await w.p.person('developer');
  boxA = await mailboxFor(w.p, [w.p.owner.userId]);
  const more = async (who: string, members: string[]) => {
    const address = `${who}-${tag}@${boxA.domain}`;
    const res = await w.p.post(`/v1/orgs/${w.p.org.orgId}/mail/admin/mailboxes`, { address, name: who, members });
    return { address, mailboxId: res.body.mailbox.mailboxId as string };
  };
  boxB = await more('bea', [b.userId]);
  boxC = await more('cal', [w.p.owner.userId]);
  const open = async (person: Person) => {
    const context = await w.browser.newContext({ viewport: { width: 1440, height: 900 } });
    contexts.push(context);
    const { page, problems } = await newPage(context);
    await page.goto(w.app);
    await signIn(page, person);
    return { page, problems };
  };
  ({ page: pageA, problems: problemsA } = await open(w.p.owner));
  ({ page: pageB, problems: problemsB } = await open(b));
}, 180_000);
afterAll(async () => {
  for (const c of contexts) await c.close();
  await w?.close();
  await worker?.stop();
  await smtp?.close();
  await dns?.close();
});

const mb = (id: string) => `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${id}`;

const shown = (steps: () => Promise<void>) => async () => {
  try {
    await steps();
  } catch (err) {
    const said = async (page: Page) =>
      `${page.url()}:\n${(
        await page
          .locator('main')
          .textContent()
          .catch(() => '')
      )?.slice(0, 2000)}`;
    (err as Error).stack =
      `${(err as Error).message}\n\nA's page ${await said(pageA)}\n\nB's page ${await said(pageB)}\n${(err as Error).stack ?? ''}`;
    throw err;
  }
};

/**
 * Console errors, less Chromium's refusal of axe-core's script in the message's frame (axe injects
 * itself into every frame; the sandbox, without allow-scripts, refuses it, as it must).
 */
const errors = (problems: string[]) =>
  problems.filter(
    (p) => !p.includes("Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed"),
  );

/**
 * The harness's axe, the frames showing a message excluded: axe-core runs itself inside every frame, and
 * one without allow-scripts never lets it (the run would wait for it forever). A message's HTML is
 * the sender's, not the app's.
 */
async function axe(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).exclude('iframe[title^="The message from"]').analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** axe at 1440 px and at 375 px, where nothing may be wider than the screen; no console error. */
async function clean(page: Page, problems: string[]) {
  expect(await axe(page)).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await axe(page)).toEqual([]);
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(errors(problems)).toEqual([]);
}

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const folder = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Folders' }).getByRole('link', { name: new RegExp(`^${name}`) });
const threadLink = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Threads' }).getByRole('link').filter({ hasText: text });

/** A mailbox chosen in the switcher (each person's first is opened; A has two). */
async function openMailbox(page: Page, address: string, mailboxId: string) {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Mail' }).click();
  const select = page.getByRole('combobox', { name: 'Mailbox' });
  await select.waitFor();
  const value = await select.locator('option', { hasText: address }).getAttribute('value');
  await select.selectOption(value as string);
  await page.waitForURL((url) => url.pathname.endsWith(`/mail/${mailboxId}`));
  await h1(page, 'Inbox').waitFor();
}

it(
  'A composes to B with an attachment: recipients checked, the file uploaded, sent',
  shown(async () => {
    await openMailbox(pageA, boxA.address, boxA.mailboxId);
    await clean(pageA, problemsA);
    await pageA.getByRole('link', { name: 'Compose' }).click();
    await h1(pageA, 'New message').waitFor();
    await pageA.getByRole('textbox', { name: 'To' }).fill(`${boxB.address}, not-an-address`);
    const check = pageA.getByRole('list', { name: 'Recipient check' });
    await check.getByText(`${boxB.address}: on this platform`).waitFor();
    await check.getByText('not-an-address: not a valid address').waitFor();
    await pageA.getByRole('textbox', { name: 'To' }).fill(boxB.address);
    await pageA.getByRole('textbox', { name: 'Subject' }).fill(subject);
    await pageA.getByRole('textbox', { name: 'Message' }).fill('Figures attached, Bea.');
    await pageA
      .getByLabel('Attach files')
      .setInputFiles({ name: 'figures.csv', mimeType: 'text/csv', buffer: fileBytes });
    const attached = pageA.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    await attached.filter({ hasText: 'figures.csv' }).waitFor();
    await pageA.getByRole('button', { name: 'Remove figures.csv' }).waitFor();
    await expectNoText(attached, 'uploading');
    await clean(pageA, problemsA);
    await pageA.getByRole('button', { name: 'Send' }).click();
    await h1(pageA, subject).waitFor();
    const sent = await w.p.get(`${mb(boxA.mailboxId)}/threads?label=SENT`);
    const thread = sent.body.threads.find((t: { subject: string }) => t.subject === subject);
    expect(thread).toMatchObject({ hasAttachment: true, messageCount: 1, to: [{ address: boxB.address }] });
    // Sent, its draft is gone.
    expect((await w.p.get(`${mb(boxA.mailboxId)}/drafts`)).body.drafts).toEqual([]);
  }),
  120_000,
);

async function expectNoText(locator: ReturnType<Page['getByRole']>, text: string) {
  await until(async () => !(await locator.allTextContents()).some((t) => t.includes(text)) || undefined);
}

it(
  'B finds it in the inbox, downloads the attachment and replies in the thread',
  shown(async () => {
    await openMailbox(pageB, boxB.address, boxB.mailboxId);
    const row = threadLink(pageB, subject);
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain('Unread');
    await clean(pageB, problemsB);
    await row.click();
    await h1(pageB, subject).waitFor();
    const message = pageB.getByRole('article', { name: /^Message from / });
    await message.getByText('Figures attached, Bea.').or(message.locator('iframe')).first().waitFor();
    const files = message.getByRole('region', { name: /^Attachments of the message/ });
    await files.getByText('figures.csv').waitFor();
    const [download] = await Promise.all([
      pageB.waitForEvent('download'),
      files.getByRole('button', { name: 'Download figures.csv' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('figures.csv');
    expect(readFileSync(await download.path()).equals(fileBytes)).toBe(true);
    await clean(pageB, problemsB);

    await message.getByRole('button', { name: 'Reply', exact: true }).click();
    const form = pageB.getByRole('form', { name: 'Reply' });
    expect(await form.getByRole('textbox', { name: 'To' }).inputValue()).toBe(boxA.address);
    expect(await form.getByRole('textbox', { name: 'Subject' }).inputValue()).toBe(`Re: ${subject}`);
    const body = form.getByRole('textbox', { name: 'Message' });
    expect(await body.inputValue()).toContain('> Figures attached, Bea.');
    await body.press('Control+Home');
    await body.pressSequentially('Thanks, got them.');
    await form.getByRole('button', { name: 'Send' }).click();
    await pageB.getByRole('status').filter({ hasText: 'Message sent.' }).waitFor();
    await pageB
      .getByRole('article', { name: /^Message from / })
      .nth(1)
      .waitFor();
    expect(errors(problemsB)).toEqual([]);

    // Through the API: B's thread has both, the reply answering A's message; the thread is read.
    const list = await w.p.get(`${mb(boxB.mailboxId)}/threads?label=INBOX`, { token: b.token });
    // The thread's subject is its latest message's ("Re: …").
    const t = list.body.threads.find((x: { subject: string }) => x.subject.includes(subject));
    expect(t).toMatchObject({ unread: false, messageCount: 2 });
    const full = await w.p.get(`${mb(boxB.mailboxId)}/threads/${t.threadId}`, { token: b.token });
    expect(full.body.messages[1]).toMatchObject({ direction: 'out', inReplyTo: full.body.messages[0].headerId });
  }),
  120_000,
);

it(
  'A sees the reply in the same thread and forwards the original with its attachment to a third mailbox',
  shown(async () => {
    await folder(pageA, 'Inbox').click();
    const row = threadLink(pageA, subject);
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    await h1(pageA, subject).waitFor();
    const messages = pageA.getByRole('article', { name: /^Message from / });
    await messages.nth(1).getByText('Thanks, got them.').or(messages.nth(1).locator('iframe')).first().waitFor();
    expect(await messages.count()).toBe(2);
    // The first (collapsed) is opened, then forwarded.
    const collapsed = messages.first().getByRole('button', { expanded: false });
    if (await collapsed.count()) await collapsed.click();
    await messages.first().getByRole('button', { name: 'Forward' }).click();
    const form = pageA.getByRole('form', { name: 'Forward' });
    expect(await form.getByRole('textbox', { name: 'Subject' }).inputValue()).toBe(`Fwd: ${subject}`);
    await form.getByRole('list', { name: 'Attachments' }).getByText('figures.csv').waitFor();
    await form.getByRole('textbox', { name: 'To' }).fill(boxC.address);
    await clean(pageA, problemsA);
    await form.getByRole('button', { name: 'Send' }).click();
    await pageA.getByRole('status').filter({ hasText: 'Message sent.' }).waitFor();

    const forwarded = await until(async () => {
      const res = await w.p.get(`${mb(boxC.mailboxId)}/threads`);
      return res.body.threads?.find((t: { subject: string }) => t.subject === `Fwd: ${subject}`);
    });
    expect(forwarded).toMatchObject({ hasAttachment: true, from: [{ address: boxA.address }] });
    const full = await w.p.get(`${mb(boxC.mailboxId)}/threads/${forwarded.threadId}`);
    const [m] = full.body.messages;
    expect(m.attachments).toEqual([expect.objectContaining({ filename: 'figures.csv', size: fileBytes.length })]);
    const link = await w.p.get(`${mb(boxC.mailboxId)}/messages/${m.messageId}/attachments/0`);
    expect(Buffer.from(await (await fetch(link.body.url)).arrayBuffer()).equals(fileBytes)).toBe(true);
  }),
  120_000,
);

it(
  'a draft typed and left is saved as it is typed, resumed from Drafts, and gone once sent',
  shown(async () => {
    const draftSubject = `Plan ${tag}`;
    await pageA.getByRole('link', { name: 'Compose' }).click();
    await h1(pageA, 'New message').waitFor();
    await pageA.getByRole('textbox', { name: 'To' }).fill(boxB.address);
    await pageA.getByRole('textbox', { name: 'Subject' }).fill(draftSubject);
    await pageA.getByRole('textbox', { name: 'Message' }).fill('First thoughts');
    await pageA.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
    const drafts = await until(async () => {
      const res = await w.p.get(`${mb(boxA.mailboxId)}/drafts`);
      return res.body.drafts?.find((d: { text: string }) => d.text === 'First thoughts') ? res.body.drafts : undefined;
    });
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ to: [boxB.address], subject: draftSubject });

    await folder(pageA, 'Inbox').click();
    await h1(pageA, 'Inbox').waitFor();
    await folder(pageA, 'Drafts').click();
    await h1(pageA, 'Drafts').waitFor();
    await clean(pageA, problemsA);
    await pageA.getByRole('region', { name: 'Drafts' }).getByRole('link').filter({ hasText: draftSubject }).click();
    await h1(pageA, /^Draft$/).waitFor();
    expect(await pageA.getByRole('textbox', { name: 'To' }).inputValue()).toBe(boxB.address);
    expect(await pageA.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('First thoughts');
    await pageA.getByRole('textbox', { name: 'Message' }).fill('First thoughts, then more.');
    await pageA.getByRole('button', { name: 'Send' }).click();
    await h1(pageA, draftSubject).waitFor();
    expect((await w.p.get(`${mb(boxA.mailboxId)}/drafts`)).body.drafts).toEqual([]);
    const sent = await w.p.get(`${mb(boxA.mailboxId)}/threads?label=SENT&q=${encodeURIComponent(draftSubject)}`);
    const full = await w.p.get(`${mb(boxA.mailboxId)}/threads/${sent.body.threads[0].threadId}`);
    expect(full.body.messages[0].snippet).toContain('First thoughts, then more.');
    expect(errors(problemsA)).toEqual([]);
  }),
  120_000,
);

it(
  "an HTML message's remote image is not requested until Show images, and its script never runs",
  shown(async () => {
    const htmlSubject = `Newsletter ${tag}`;
    const host = `images-${tag}.remote.test`;
    const asked: string[] = [];
    pageB.on('request', (r) => {
      if (new URL(r.url()).hostname === host) asked.push(r.url());
    });
    const pixel = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      'base64',
    );
    await pageB.route(`https://${host}/**`, (route) =>
      route.fulfill({ status: 200, contentType: 'image/png', body: pixel }),
    );
    await createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true }).sendMail({
      from: 'news@outside.example',
      to: boxB.address,
      subject: htmlSubject,
      text: 'Our news.',
      html: `<h1>Our news</h1><p>Read on.</p><img src="https://${host}/pixel.png" alt="tracker"><script>parent.document.title = 'ran'</script><img src="x" onerror="parent.document.title = 'ran'">`,
    });
    await folder(pageB, 'Inbox').click();
    const row = threadLink(pageB, htmlSubject);
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    await h1(pageB, htmlSubject).waitFor();
    const frame = pageB.locator('iframe[title^="The message from"]');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).not.toContain('allow-scripts');
    const inside = pageB.frameLocator('iframe[title^="The message from"]');
    await inside.getByRole('heading', { name: 'Our news' }).waitFor();
    expect(await inside.locator('script').count()).toBe(0);
    const show = pageB.getByRole('button', { name: 'Show images' });
    await show.waitFor();
    expect(asked).toEqual([]);
    await clean(pageB, problemsB);
    expect(asked).toEqual([]);

    await Promise.all([pageB.waitForRequest((r) => new URL(r.url()).hostname === host), show.click()]);
    await inside.getByRole('img', { name: 'tracker' }).waitFor();
    expect([...new Set(asked)]).toEqual([`https://${host}/pixel.png`]);
    expect(await pageB.title()).not.toContain('ran');
    expect(errors(problemsB)).toEqual([]);
  }),
  120_000,
);

it(
  'labels: made, applied from the list, shown as a folder; removed from the thread',
  shown(async () => {
    const name = `Clients ${tag}`;
    await folder(pageB, 'Inbox').click();
    await h1(pageB, 'Inbox').waitFor();
    await pageB.getByRole('textbox', { name: 'New label' }).fill(name);
    await pageB.getByRole('button', { name: 'Create', exact: true }).click();
    const labelLink = pageB.getByRole('navigation', { name: 'Labels' }).getByRole('link', { name });
    await labelLink.waitFor();
    const labels = await w.p.get(`${mb(boxB.mailboxId)}/labels`, { token: b.token });
    const label = labels.body.labels.find((l: { name: string }) => l.name === name);
    expect(label).toMatchObject({ type: 'user' });

    // By keyboard, as every action can be.
    const choose = pageB.getByRole('checkbox', { name: `Select Re: ${subject}` });
    await choose.focus();
    await choose.press('Space');
    expect(await choose.isChecked()).toBe(true);
    await pageB.getByRole('combobox', { name: 'Label', exact: true }).selectOption(label.labelId);
    await pageB.getByRole('button', { name: 'Apply label' }).click();
    await threadLink(pageB, subject).filter({ hasText: name }).waitFor();
    const list = await w.p.get(`${mb(boxB.mailboxId)}/threads?label=${label.labelId}`, { token: b.token });
    expect(list.body.threads.map((t: { subject: string }) => t.subject)).toEqual([`Re: ${subject}`]);
    await clean(pageB, problemsB);

    await labelLink.click();
    await h1(pageB, name).waitFor();
    await threadLink(pageB, subject).click();
    await h1(pageB, subject).waitFor();
    await pageB.getByRole('button', { name: `Remove the label ${name}` }).click();
    await pageB.getByRole('button', { name: `Remove the label ${name}` }).waitFor({ state: 'detached' });
    const after = await w.p.get(`${mb(boxB.mailboxId)}/threads?label=${label.labelId}`, { token: b.token });
    expect(after.body.threads).toEqual([]);
    expect(errors(problemsB)).toEqual([]);
  }),
  120_000,
);

it(
  "search finds a message by the API's operators, and nothing that doesn't match",
  shown(async () => {
    await folder(pageB, 'Inbox').click();
    await h1(pageB, 'Inbox').waitFor();
    const box = pageB.getByRole('searchbox', { name: /^Search mail/ });
    await box.fill('has:attachment figures');
    await box.press('Enter');
    await h1(pageB, 'Search: has:attachment figures').waitFor();
    await threadLink(pageB, subject).waitFor();
    expect(await threadLink(pageB, `Newsletter ${tag}`).count()).toBe(0);
    await clean(pageB, problemsB);
    await box.fill(`from:news@outside.example`);
    await box.press('Enter');
    await threadLink(pageB, `Newsletter ${tag}`).waitFor();
    expect(await threadLink(pageB, subject).count()).toBe(0);
    await box.fill(`nothing-matches-${tag}`);
    await box.press('Enter');
    await pageB.getByText('No thread matches this search.').waitFor();
    expect(errors(problemsB)).toEqual([]);
  }),
  90_000,
);
