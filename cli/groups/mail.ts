import { basename } from 'node:path';
import type { Operations } from '../../client';
import { UsageError } from '../context';
import { bytes, table, when } from '../output';
import type { CommandSpec, Ctx, OptionSpec } from '../spec';
import { TransferMeter, typeOf, uploadFile } from '../transfer';
import { bodyOf, intOption, localFile } from './common';

/** `mail`: the mailboxes you are a member of: threads, reading, sending with attachments. */

export const MAILBOX: OptionSpec = {
  type: 'string',
  value: 'ADDRESS',
  help: 'the mailbox (its address or id; default: PLATFORM_MAILBOX, else your only one)',
  complete: 'mailbox',
};

const width = (c: Ctx) => c.io;
const person = (a: { name: string; address: string } | null | undefined) =>
  a ? (a.name ? `${a.name} <${a.address}>` : a.address) : '-';

/** The mailbox a command works in, and the session's client. */
export async function mailboxOf(c: Ctx) {
  const s = await c.session();
  const orgId = s.config.orgId;
  const wanted = c.str('mailbox') ?? c.io.env.PLATFORM_MAILBOX;
  const { mailboxes } = await s.api.getMailMailboxes({ orgId });
  const found = wanted
    ? mailboxes.find((m) => m.mailboxId === wanted || m.address.toLowerCase() === wanted.toLowerCase())
    : mailboxes.length === 1
      ? mailboxes[0]
      : undefined;
  if (!found) {
    const yours = mailboxes.map((m) => m.address).join(', ');
    if (wanted) throw new UsageError(`You have no mailbox ${wanted}${yours ? ` (yours: ${yours})` : ''}.`);
    throw new UsageError(
      yours
        ? `Name the mailbox: --mailbox <address> (yours: ${yours}).`
        : 'You are a member of no mailbox in this organization (an administrator adds you to one).',
    );
  }
  return { api: s.api, orgId, mailbox: found, mailboxId: found.mailboxId };
}

/** `--to a --to b,c` → `['a', 'b', 'c']`. */
const addresses = (c: Ctx, name: string) =>
  c
    .all(name)
    .flatMap((a) => a.split(','))
    .map((a) => a.trim())
    .filter(Boolean);

type MailDomain = Operations['postMailDomains']['response']['domain'];

/** A mail domain and the DNS records it needs (found or not once checked). */
const domainText = (d: MailDomain, c: Ctx) =>
  `${d.domain}: ${d.status}${d.status === 'verified' ? '' : ` (create these records, then: platform mail domain verify ${d.domain})`}\n${table(
    [
      ['PURPOSE', 'TYPE', 'NAME', 'VALUE', 'FOUND'],
      ...d.records.map((r) => [r.purpose, r.type, r.name, r.value, r.found === null ? '-' : r.found ? 'yes' : 'no']),
    ],
    c.io,
    [1, 2, 3, 4],
  )}`;

export const MAIL_COMMANDS: CommandSpec[] = [
  {
    path: ['mail', 'domain', 'add'],
    summary: 'send and receive mail at a domain of yours; prints the DNS records to create',
    positionals: [{ name: 'domain', required: true }],
    examples: ['platform mail domain add example.com', 'platform mail domain verify example.com'],
    run: async (c) => {
      const s = await c.session();
      const res = await s.api.postMailDomains({ orgId: s.config.orgId, body: { domain: c.args[0] as string } });
      return c.print(res, () => domainText(res.domain, c));
    },
  },
  {
    path: ['mail', 'domain', 'verify'],
    summary: "check a mail domain's DNS records now",
    positionals: [{ name: 'domain', required: true }],
    examples: ['platform mail domain verify example.com'],
    run: async (c) => {
      const s = await c.session();
      const res = await s.api.postMailDomainsVerify({ orgId: s.config.orgId, domain: c.args[0] as string });
      return c.print(res, () => domainText(res.domain, c));
    },
  },
  {
    path: ['mail', 'mailbox', 'add'],
    summary: 'create a mailbox at a verified domain (owners and admins)',
    positionals: [{ name: 'address', required: true }],
    options: {
      name: { type: 'string', value: 'N', help: 'the name mail is sent as', required: true },
      member: { type: 'string', value: 'EMAIL', help: 'a member who reads it (repeat it)', multiple: true },
      shared: { type: 'boolean', help: 'a shared mailbox (default: personal)' },
    },
    examples: ['platform mail mailbox add ada@example.com --name "Ada Lovelace" --member ada@example.com'],
    run: async (c) => {
      const s = await c.session();
      const members = c.all('member');
      const res = await s.api.postMailAdminMailboxes({
        orgId: s.config.orgId,
        body: {
          address: c.args[0] as string,
          name: c.str('name') as string,
          ...(members.length ? { members } : {}),
          kind: c.flag('shared') ? 'shared' : 'personal',
        },
      });
      const box = (res as { mailbox: { address: string; mailboxId: string } }).mailbox;
      return c.print(res, () => `Created mailbox ${box.address} (${box.mailboxId}).`);
    },
  },
  {
    path: ['mail', 'mailboxes'],
    summary: 'the mailboxes you are a member of, with their unread counts',
    run: async (c) => {
      const s = await c.session();
      const res = await s.api.getMailMailboxes({ orgId: s.config.orgId });
      return c.print(res, () =>
        res.mailboxes.length === 0
          ? 'You are a member of no mailbox in this organization.'
          : table(
              [
                ['ADDRESS', 'NAME', 'KIND', 'UNREAD'],
                ...res.mailboxes.map((m) => [m.address, m.name, m.kind, String(m.unread)]),
              ],
              width(c),
              [0, 2, 3],
            ),
      );
    },
  },
  {
    path: ['mail', 'list'],
    aliases: ['ls'],
    summary: 'threads of a label (default INBOX), newest first; * marks unread ones',
    details:
      '--query takes what the search box does: from: to: subject: label: is:unread has:attachment\n' +
      'before: after: (YYYY/MM/DD) and words.',
    options: {
      mailbox: MAILBOX,
      label: { type: 'string', value: 'LABEL', help: 'INBOX, SENT, DRAFTS, STARRED, TRASH, SPAM or a label id' },
      query: { type: 'string', short: 'q', value: 'Q', help: 'search (from:ana has:attachment…)' },
      limit: { type: 'string', value: 'N', help: 'at most N threads (1-100, default 50)' },
    },
    examples: ['platform mail list', 'platform mail list --label SENT -q "has:attachment after:2026/11/01"'],
    run: async (c) => {
      const limit = intOption(c, 'limit', 1, 100);
      const { api, orgId, mailboxId } = await mailboxOf(c);
      const res = await api.getMailMailboxesThreads({
        orgId,
        mailboxId,
        label: c.str('label'),
        q: c.str('query'),
        limit,
      });
      return c.print(res, () =>
        res.threads.length === 0
          ? 'No threads.'
          : table(
              [
                ['', 'THREAD', 'FROM', 'SUBJECT', 'MSGS', 'LAST'],
                ...res.threads.map((t) => [
                  t.unread ? '*' : '',
                  t.threadId,
                  t.from.map((f) => f.name || f.address).join(', '),
                  `${t.subject || '(no subject)'}${t.hasAttachment ? ' [attachment]' : ''}`,
                  String(t.messageCount),
                  when(t.lastAt),
                ]),
              ],
              width(c),
              [0, 1, 4, 5],
            ),
      );
    },
  },
  {
    path: ['mail', 'read'],
    summary: 'a thread: each message with its headers, text and attachments (it is marked read)',
    positionals: [{ name: 'threadId', required: true }],
    options: { mailbox: MAILBOX },
    examples: ['platform mail read thr_…'],
    run: async (c) => {
      const { api, orgId, mailboxId } = await mailboxOf(c);
      const threadId = c.args[0] as string;
      const res = await api.getMailMailboxesThreadsByThreadId({ orgId, mailboxId, threadId });
      const bodies = await Promise.all(
        res.messages.map((m) =>
          api.getMailMailboxesThreadsMessagesBody({ orgId, mailboxId, threadId, messageId: m.messageId }),
        ),
      );
      if (res.thread.unread)
        await api.postMailMailboxesThreadsActions({
          orgId,
          mailboxId,
          body: { threadIds: [threadId], action: 'read' },
        });
      const data = { ...res, messages: res.messages.map((m, i) => ({ ...m, body: bodies[i] })) };
      return c.print(data, () =>
        res.messages
          .map((m, i) =>
            [
              `From:    ${person(m.from)}`,
              `To:      ${m.to.map(person).join(', ') || '-'}`,
              ...(m.cc.length ? [`Cc:      ${m.cc.map(person).join(', ')}`] : []),
              `Date:    ${when(m.date)}`,
              `Subject: ${m.subject}`,
              ...m.attachments.map((a) => `Attached: ${a.filename} (${a.contentType}, ${bytes(a.size)})`),
              '',
              (bodies[i]?.text ?? '').trimEnd() || '(no text part)',
            ].join('\n'),
          )
          .join(`\n\n${'─'.repeat(Math.min(c.io.columns ?? 60, 60))}\n\n`),
      );
    },
  },
  {
    path: ['mail', 'send'],
    summary: 'send a message from the mailbox, with attachments uploaded through their links',
    details:
      'The text is --body, else --body-file (-: stdin). Each --attach file is uploaded first (a link the API\n' +
      'gives, up to the 25 MB a message may carry), with the progress on a terminal.',
    options: {
      mailbox: MAILBOX,
      to: { type: 'string', value: 'ADDR', help: 'a recipient (repeat, or a comma list)', multiple: true },
      cc: { type: 'string', value: 'ADDR', help: 'copied (repeat, or a comma list)', multiple: true },
      bcc: { type: 'string', value: 'ADDR', help: 'blind copied (repeat, or a comma list)', multiple: true },
      subject: { type: 'string', short: 's', value: 'TEXT', help: 'the subject' },
      body: { type: 'string', value: 'TEXT', help: 'the text' },
      'body-file': { type: 'string', value: 'FILE', help: 'the text, from a file (-: stdin)', complete: 'file' },
      attach: { type: 'string', value: 'FILE', help: 'attach a file (repeat)', multiple: true, complete: 'file' },
      from: { type: 'string', value: 'ADDR', help: "the mailbox's address or one of its aliases" },
    },
    examples: [
      'platform mail send --to ana@example.com -s "Q3 report" --body "Attached." --attach q3.pdf',
      'git log --oneline -5 | platform mail send --to team@example.com -s "This week" --body-file -',
    ],
    run: async (c) => {
      const to = addresses(c, 'to');
      const cc = addresses(c, 'cc');
      const bcc = addresses(c, 'bcc');
      if (to.length + cc.length + bcc.length === 0) throw new UsageError('Name a recipient: --to <address>.');
      const files = c.all('attach').map((name) => localFile(c, name, { empty: false }));
      const text = (await bodyOf(c)) ?? '';
      const { api, orgId, mailboxId } = await mailboxOf(c);
      const attachments: { uploadId: string }[] = [];
      for (const { file, size } of files) {
        const filename = basename(file);
        const { upload } = await api.postMailMailboxesUploads({
          orgId,
          mailboxId,
          body: { filename, contentType: typeOf(file), size },
        });
        const meter = new TransferMeter(`Uploading ${filename}`, size, c.io.stderr, c.io.tty);
        await uploadFile(upload.url, file, upload.contentType, meter);
        meter.end();
        attachments.push({ uploadId: upload.uploadId });
      }
      const res = await api.postMailMailboxesSend({
        orgId,
        mailboxId,
        body: { to, cc, bcc, subject: c.str('subject') ?? '', text, attachments, from: c.str('from') },
      });
      const rejected = res.rejected.length ? ` Refused: ${res.rejected.join(', ')}.` : '';
      const count = res.message.attachments.length;
      const with_ = count ? ` with ${count} attachment${count === 1 ? '' : 's'}` : '';
      return c.print(
        res,
        () => `Sent "${res.message.subject}" to ${[...to, ...cc, ...bcc].join(', ')}${with_}.${rejected}`,
      );
    },
  },
];
