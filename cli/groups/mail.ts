import { basename } from 'node:path';
import PostalMime, { type Address, type Email } from 'postal-mime';
import type { Client, MailDomain, Operations } from '../../client';
import { CliError, UsageError } from '../context';
import { bytes, table, when } from '../output';
import type { CommandSpec, Ctx, OptionSpec } from '../spec';
import { TransferMeter, typeOf, uploadFile } from '../transfer';
import { bodyOf, intOption, localFile } from './common';

/**
 * `mail`: the mailboxes you are a member of: threads, reading, sending with attachments, replying
 * to and forwarding a message.
 */

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

/** `--to`, `--cc`, `--bcc`: addresses, repeated or comma lists. */
const addressList = (help: string, required?: boolean): OptionSpec => ({
  type: 'string',
  value: 'ADDR',
  help: `${help} (repeat, or a comma list)`,
  multiple: true,
  ...(required ? { required } : {}),
});
const RECIPIENTS = { to: addressList('a recipient'), cc: addressList('copied'), bcc: addressList('blind copied') };

/** What a message says and carries, and whom it is from: the options of send, reply and forward. */
const CONTENT: Record<string, OptionSpec> = {
  body: { type: 'string', value: 'TEXT', help: 'the text' },
  'body-file': { type: 'string', value: 'FILE', help: 'the text, from a file (-: stdin)', complete: 'file' },
  attach: { type: 'string', value: 'FILE', help: 'attach a file (repeat)', multiple: true, complete: 'file' },
  from: { type: 'string', value: 'ADDR', help: "the mailbox's address or one of its aliases" },
};

/** A message's recipients, its text (undefined: none given) and its files, read before any request. */
async function contentOf(c: Ctx) {
  return {
    to: addresses(c, 'to'),
    cc: addresses(c, 'cc'),
    bcc: addresses(c, 'bcc'),
    text: await bodyOf(c),
    files: c.all('attach').map((name) => localFile(c, name, { empty: false })),
  };
}

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
    examples: ['platform mail mailboxes'],
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
              `Message: ${m.messageId}`,
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
      ...RECIPIENTS,
      subject: { type: 'string', short: 's', value: 'TEXT', help: 'the subject' },
      ...CONTENT,
    },
    examples: [
      'platform mail send --to ana@example.com -s "Q3 report" --body "Attached." --attach q3.pdf',
      'git log --oneline -5 | platform mail send --to team@example.com -s "This week" --body-file -',
    ],
    run: async (c) => {
      const { to, cc, bcc, text, files } = await contentOf(c);
      if (to.length + cc.length + bcc.length === 0) throw new UsageError('Name a recipient: --to <address>.');
      const box = await mailboxOf(c);
      const attachments = await uploads(c, box, files);
      return sendAs(c, box, { to, cc, bcc, subject: c.str('subject') ?? '', text: text ?? '', attachments });
    },
  },
  {
    path: ['mail', 'reply'],
    summary: 'reply to a message (or to the last one of a thread), in its thread, quoting it',
    details:
      'The reply goes to the Reply-To of the message, else its sender (a message you sent: its recipients);\n' +
      '--all copies its other recipients too. The subject gets Re:, and the platform sets In-Reply-To and\n' +
      "References, so it joins the thread here and in the recipients' mail. The message ids are in\n" +
      'platform mail read.',
    positionals: [
      { name: 'messageId', required: true, help: 'a message (msg_…), or a thread (thr_…): its last message' },
    ],
    options: {
      mailbox: MAILBOX,
      all: { type: 'boolean', help: 'reply to all: copy the other recipients of the message' },
      cc: addressList('also copied'),
      ...CONTENT,
      'no-quote': { type: 'boolean', help: 'leave the message out (default: quoted below the text)' },
    },
    examples: [
      'platform mail reply msg_01m8bqewt1ntccd2hvfr1kpxzm --body "Thanks, merged."',
      'platform mail reply thr_01m8bqewt1ntccd2hvfr1kpxzm --all --body-file answer.md',
    ],
    run: async (c) => {
      const { cc: copied, text, files } = await contentOf(c);
      if (text === undefined) throw new UsageError('Write the reply: --body TEXT, or --body-file FILE (-: stdin).');
      const box = await mailboxOf(c);
      const { messageId, email } = await originalOf(c, box);
      const own = new Set([box.mailbox.address, ...box.mailbox.aliases].map((a) => a.toLowerCase()));
      const sender = mailboxesIn(email.from ? [email.from] : []);
      const fromUs = sender.some((a) => own.has(a.address.toLowerCase()));
      // As mail programs do: to Reply-To, else the sender; answering your own message, its recipients.
      const first = fromUs
        ? mailboxesIn(email.to)
        : mailboxesIn(email.replyTo).length
          ? mailboxesIn(email.replyTo)
          : sender;
      const others = c.flag('all') ? [...sender, ...mailboxesIn(email.to), ...mailboxesIn(email.cc)] : [];
      const to = distinct(
        first.map((a) => a.address),
        own,
      );
      const cc = distinct([...others.map((a) => a.address), ...copied], new Set([...own, ...to]));
      if (to.length + cc.length === 0) throw new CliError(`${messageId} names no one to reply to.`);
      const quoted = c.flag('no-quote')
        ? ''
        : `\n\nOn ${when(email.date)}, ${person(sender[0])} wrote:\n${quote(textOf(email))}`;
      const attachments = await uploads(c, box, files);
      return sendAs(c, box, {
        to,
        cc,
        subject: prefixed('Re', email.subject ?? '', /^re:/i),
        text: `${text.trimEnd()}${quoted}`,
        attachments,
        inReplyTo: messageId,
      });
    },
  },
  {
    path: ['mail', 'forward'],
    summary: 'forward a message (or the last one of a thread) with its attachments',
    details:
      'The subject gets Fwd:; the text (--body, else --body-file) comes first, then the message with its\n' +
      'headers. Its attachments go with it (taken from the mailbox, not uploaded again).',
    positionals: [
      { name: 'messageId', required: true, help: 'a message (msg_…), or a thread (thr_…): its last message' },
    ],
    options: {
      mailbox: MAILBOX,
      ...RECIPIENTS,
      to: addressList('a recipient', true),
      ...CONTENT,
    },
    examples: [
      'platform mail forward msg_01m8bqewt1ntccd2hvfr1kpxzm --to ops@example.com --body "FYI"',
      'platform mail forward thr_01m8bqewt1ntccd2hvfr1kpxzm --to ana@example.com,bo@example.com',
    ],
    run: async (c) => {
      const { to, cc, bcc, text = '', files } = await contentOf(c);
      if (to.length === 0) throw new UsageError('Name a recipient: --to <address>.');
      const box = await mailboxOf(c);
      const { messageId, email } = await originalOf(c, box);
      const header = [
        '---------- Forwarded message ---------',
        `From: ${person(mailboxesIn(email.from ? [email.from] : [])[0])}`,
        `Date: ${when(email.date)}`,
        `Subject: ${email.subject ?? ''}`,
        `To: ${mailboxesIn(email.to).map(person).join(', ') || '-'}`,
        ...(email.cc?.length ? [`Cc: ${mailboxesIn(email.cc).map(person).join(', ')}`] : []),
      ].join('\n');
      // Its parts by their index in the mailbox (the platform parses messages the same way).
      const parts = email.attachments.map((_, index) => ({ messageId, index }));
      const attachments = [...parts, ...(await uploads(c, box, files))];
      return sendAs(c, box, {
        to,
        cc,
        bcc,
        subject: prefixed('Fwd', email.subject ?? '', /^fwd?:/i),
        text: `${text.trimEnd() ? `${text.trimEnd()}\n\n` : ''}${header}\n\n${textOf(email)}\n`,
        attachments,
      });
    },
  },
];

type Box = Awaited<ReturnType<typeof mailboxOf>>;
type Outgoing = Omit<Operations['postMailMailboxesSend']['body'], 'from'>;

/**
 * Sends a message from the mailbox (`--from`: one of its aliases) and says so: `Sent "Subject" to
 * a, b with 1 attachment.`, and the recipients the mail system refused.
 */
async function sendAs(c: Ctx, box: Box, message: Outgoing): Promise<number> {
  const { api, orgId, mailboxId } = box;
  const res = await api.postMailMailboxesSend({ orgId, mailboxId, body: { ...message, from: c.str('from') } });
  const recipients = [...(message.to ?? []), ...(message.cc ?? []), ...(message.bcc ?? [])];
  const rejected = res.rejected.length ? ` Refused: ${res.rejected.join(', ')}.` : '';
  const count = res.message.attachments.length;
  const with_ = count ? ` with ${count} attachment${count === 1 ? '' : 's'}` : '';
  return c.print(res, () => `Sent "${res.message.subject}" to ${recipients.join(', ')}${with_}.${rejected}`);
}

/** Local files uploaded through the links the mailbox's upload route answers (progress on a terminal). */
async function uploads(c: Ctx, box: Box, files: { file: string; size: number }[]): Promise<{ uploadId: string }[]> {
  const done: { uploadId: string }[] = [];
  for (const { file, size } of files) {
    const filename = basename(file);
    const { upload } = await box.api.postMailMailboxesUploads({
      orgId: box.orgId,
      mailboxId: box.mailboxId,
      body: { filename, contentType: typeOf(file), size },
    });
    const meter = new TransferMeter(`Uploading ${filename}`, size, c.io.stderr, c.io.tty);
    await uploadFile(upload.url, file, upload.contentType, meter);
    meter.end();
    done.push({ uploadId: upload.uploadId });
  }
  return done;
}

/**
 * The message a reply or a forward is about, parsed from the raw message the mailbox keeps (its
 * link, `…/messages/:messageId/raw`): a message id, or a thread id for the thread's last message.
 */
async function originalOf(c: Ctx, box: Box): Promise<{ messageId: string; email: Email }> {
  const { api, orgId, mailboxId } = box;
  let messageId = c.args[0] as string;
  if (messageId.startsWith('thr_')) {
    const { messages } = await api.getMailMailboxesThreadsByThreadId({ orgId, mailboxId, threadId: messageId });
    messageId = messages.at(-1)?.messageId ?? messageId;
  }
  return { messageId, email: await PostalMime.parse(await rawOf(c, api, orgId, mailboxId, messageId)) };
}

async function rawOf(c: Ctx, api: Client, orgId: string, mailboxId: string, messageId: string) {
  const { url } = await api.getMailMailboxesMessagesRaw({ orgId, mailboxId, messageId });
  let res: Response;
  try {
    res = await (c.io.fetch ?? fetch)(url);
  } catch (err) {
    throw new CliError(
      `Couldn't read ${messageId}: ${(err as { cause?: Error }).cause?.message ?? (err as Error).message}`,
    );
  }
  if (!res.ok) throw new CliError(`Couldn't read ${messageId}: the storage answered ${res.status}.`);
  return res.arrayBuffer();
}

/** The mailboxes of an address list, groups opened. */
const mailboxesIn = (list: Address[] | undefined) =>
  (list ?? []).flatMap((a) => (a.group ? a.group : a.address ? [{ name: a.name, address: a.address }] : []));

/** Addresses once each (case aside), without those of `skip`. */
function distinct(list: string[], skip: Set<string>): string[] {
  const seen = new Set(skip);
  return list.filter((a) => {
    const key = a.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `Re: subject`, unless it has the prefix already. */
const prefixed = (prefix: string, subject: string, has: RegExp) =>
  has.test(subject.trim()) ? subject : `${prefix}: ${subject}`;

/** A message's text with its lines ended by LF (a MIME part's CRLF too), trailing space off. */
const textOf = (email: Email) => (email.text ?? '').replace(/\r\n?/g, '\n').trimEnd();

/** Each line of a text as a quote (`> `). */
const quote = (text: string) =>
  text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
