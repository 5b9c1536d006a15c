import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Person } from '../helpers/platform';
import { type MailWorld, startMailWorld, unique, until } from '../mail/helpers';
import { Cli } from './helpers';

/**
 * `track`, `cal` and `mail` on the local platform, each command a child process: two people, each
 * a member of a mailbox on one domain (mail between them goes through the local SMTP server and
 * the mail-inbound worker, as on AWS through SES). `--json` is the API's own answer; human output
 * is a table 100 columns wide, times in Europe/Paris.
 */
let w: MailWorld;
let ana: Cli;
let bea: Cli;
let b: Person;
let addressA: string;
let addressB: string;
let boxA: string;
let boxB: string;
const space = `C${Date.now().toString(36).slice(-4).toUpperCase()}`;

const json = async (c: Cli, argv: string[]) => {
  const res = await c.run([...argv, '--json']);
  expect({ argv, code: res.code, stderr: res.stderr }).toEqual({ argv, code: 0, stderr: '' });
  return JSON.parse(res.stdout);
};
/** Output with what changes from run to run replaced by text of the same width: the space's key, ids. */
const norm = (text: string) =>
  text
    .replaceAll(space, 'SPACE')
    .replace(/(thr|evt|msg)_[0-9A-Za-z_-]+/g, (id) => `${id.slice(0, 4)}${'x'.repeat(id.length - 4)}`);
/** And times. */
const normTimes = (text: string) => norm(text).replace(/\d{4}-\d\d-\d\d \d\d:\d\d/g, 'YYYY-MM-DD hh:mm');

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'cli-work-'));
  w = await startMailWorld({ smtp: true });
  const { p } = w;
  b = await p.person('developer');
  const domain = `${unique('dom')}.test`;
  expect((await p.post(`/v1/orgs/${p.org.orgId}/mail/domains`, { domain })).status).toBe(201);
  addressA = `ana-${unique()}@${domain}`;
  addressB = `bea-${unique()}@${domain}`;
  const mailbox = async (address: string, name: string, member: string) => {
    const res = await p.post(`/v1/orgs/${p.org.orgId}/mail/admin/mailboxes`, { address, name, members: [member] });
    expect(res.status).toBe(201);
    return res.body.mailbox.mailboxId as string;
  };
  boxA = await mailbox(addressA, 'Ana', p.owner.userId);
  boxB = await mailbox(addressB, 'Bea', b.userId);
  ana = new Cli();
  bea = new Cli();
  for (const [c, token] of [
    [ana, p.owner.token],
    [bea, b.token],
  ] as const) {
    c.columns = 100;
    c.env.TZ = 'Europe/Paris';
    expect((await c.run(['login', '--url', p.baseUrl, '--token', token])).code).toBe(0);
  }
  const made = await p.post(`/v1/orgs/${p.org.orgId}/issues/spaces`, { key: space, name: 'CLI', template: 'kanban' });
  expect(made.status).toBe(201);
});
afterAll(async () => {
  await w?.close();
});

describe('track', () => {
  it('create, search (a table of key, summary, status, assignee; --json the API answer), view', async () => {
    const one = await json(ana, ['track', 'create', 'Checkout fails on Safari', '--space', space, '--type', 'Bug']);
    expect(one.issue).toMatchObject({ key: `${space}-1`, summary: 'Checkout fails on Safari', typeId: 'bug' });
    const two = await ana.run(['track', 'create', 'Faster search', '--space', space, '--assignee', w.p.owner.email]);
    expect(two).toEqual({ code: 0, stdout: `Created ${space}-2: Faster search (Backlog).\n`, stderr: '' });
    expect((await ana.run(['track', 'create', 'Dark mode', '--space', space, '--label', 'ui,web'])).code).toBe(0);

    const jql = `project = ${space} ORDER BY key`;
    const listed = await json(ana, ['track', 'search', jql]);
    const api = await w.p.get(`/v1/orgs/${w.p.org.orgId}/issues?jql=${encodeURIComponent(jql)}`);
    expect(listed).toEqual(api.body);
    const table = await ana.run(['track', 'search', jql]);
    expect(norm(table.stdout)).toMatchInlineSnapshot(`
"KEY      SUMMARY                   STATUS   ASSIGNEE
SPACE-1  Checkout fails on Safari  Backlog  -
SPACE-2  Faster search             Backlog  Test owner
SPACE-3  Dark mode                 Backlog  -
"
`);
    const view = await ana.run(['track', 'view', `${space}-3`]);
    expect(view.stdout).toContain(`${space}-3  Dark mode\nstatus:      Backlog\ntype:        Task, priority Medium`);
    expect(view.stdout).toContain('labels:      ui, web');
    // Completion: the tracker's space keys and the caller's mailboxes, from the API.
    expect((await ana.run(['__complete', 'track', 'create', '--space', space.slice(0, 3)])).stdout).toBe(`${space}\n`);
    expect((await bea.run(['__complete', 'mail', 'list', '--mailbox', ''])).stdout).toBe(`${addressB}\n`);
    expect(view.stdout).toMatch(/\ntransitions: (.*, )?In Progress(, |\n)/);
  });

  it('transition, rank before and after; a bad query or a missing --before is refused', async () => {
    expect(await ana.run(['track', 'transition', `${space}-1`, 'In Progress'])).toEqual({
      code: 0,
      stdout: `${space}-1 is now In Progress.\n`,
      stderr: '',
    });
    expect((await ana.run(['track', 'rank', `${space}-3`, `${space}-2`, '--before', `${space}-1`])).stdout).toBe(
      `Ranked ${space}-3, ${space}-2 before ${space}-1.\n`,
    );
    const ranked = await json(ana, ['track', 'search', `project = ${space} ORDER BY rank`]);
    expect(ranked.issues.map((i: { key: string }) => i.key)).toEqual([3, 2, 1].map((n) => `${space}-${n}`));
    await ana.run(['track', 'rank', `${space}-3`, '--after', `${space}-1`]);
    const again = await json(ana, ['track', 'search', `project = ${space}`, '--order', 'rank']);
    expect(again.issues.map((i: { key: string }) => i.key)).toEqual([2, 1, 3].map((n) => `${space}-${n}`));

    const rank = await ana.run(['track', 'rank', `${space}-3`]);
    expect(rank.code).toBe(2);
    expect(rank.stderr).toMatch(/^Error: Give one of --before and --after\.\n\nUsage: platform track rank <keys…>/);
    const bad = await ana.run(['track', 'search', 'project = = X']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Error: Expected .* at line 1, column \d+\.\n$/);
  });

  it('import: a Jira CSV of 201 records in two calls, records done of total on stderr', async () => {
    const fixture = readFileSync(join(__dirname, '..', 'fixtures', 'tracker', 'jira-cloud-export.csv'), 'utf8');
    const header = fixture.split(/\r?\n/)[0]?.replace(/^\uFEFF/, '') as string;
    const columns = header.split(',');
    const at = (name: string) => columns.indexOf(name);
    const rows = Array.from({ length: 201 }, (_, n) => {
      const cells = columns.map(() => '');
      cells[at('Summary')] = `Imported ${n + 1}`;
      cells[at('Issue key')] = `OLD-${n + 1}`;
      cells[at('Issue Type')] = 'Task';
      cells[at('Status')] = n % 2 ? 'Done' : 'To Do';
      // A column the tracker doesn't know (ignored) makes the file pass 1 MB: it is uploaded first.
      return `${cells.join(',')},${'x'.repeat(6000)}`;
    });
    const dir = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'cli-import-'));
    writeFileSync(join(dir, 'export.csv'), `${[`${header},Notes`, ...rows].join('\r\n')}\r\n`);
    ana.cwd = dir;
    const key = `I${space.slice(1)}`;
    expect(
      (await w.p.post(`/v1/orgs/${w.p.org.orgId}/issues/spaces`, { key, name: 'Imp', template: 'basic' })).status,
    ).toBe(201);
    // With --json: the sentences on stderr, the last answer of the API on stdout.
    const res = await ana.run(['track', 'import', 'export.csv', '--space', key, '--json']);
    expect({ code: res.code, stderr: res.stderr.replace(/ in [\d.]+ s\)/, ')') }).toEqual({
      code: 0,
      stderr:
        'Uploaded export.csv (1.2 MB).\n' +
        'Importing export.csv: 200 of 201 records\nImporting export.csv: 201 of 201 records\n' +
        `Imported 201 of 201 records into ${key}.\n`,
    });
    const last = JSON.parse(res.stdout);
    expect(last).toMatchObject({ total: 201, processed: 1, done: true, nextRow: null });
    // The key map carried from call to call: the last answer maps all 201 old keys.
    expect(Object.keys(last.keyMap)).toHaveLength(201);
    const found = await json(ana, ['track', 'search', `project = ${key}`, '--limit', '1']);
    expect(found.total).toBe(201);
    expect(norm((await ana.run(['track', 'search', `project = ${key}`, '--limit', '1'])).stdout)).toMatch(
      /\n1-1 of 201 \(--start 1 for more\)\n$/,
    );

    // A small file goes inline: the Jira Cloud export of the fixtures, its versions and components made.
    const small = await ana.run([
      'track',
      'import',
      join(__dirname, '..', 'fixtures', 'tracker', 'jira-cloud-export.csv'),
      '--space',
      space,
      '--create-missing',
    ]);
    expect(small.code).toBe(0);
    expect(small.stdout).toMatch(new RegExp(`^Imported (\\d+) of \\1 records into ${space}\\.\\n`));
  });
});

describe('mail', () => {
  it('send with an attachment (uploaded through its link); the other mailbox lists and reads it', async () => {
    const dir = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'cli-mail-'));
    writeFileSync(join(dir, 'notes.txt'), 'Line one\nLine two\n');
    ana.cwd = dir;
    const sent = await ana.run(
      ['mail', 'send', '--to', addressB, '-s', 'Q3 notes', '--body-file', '-', '--attach', 'notes.txt'],
      { stdin: 'Here are the notes.\n' },
    );
    expect(sent).toEqual({ code: 0, stdout: `Sent "Q3 notes" to ${addressB} with 1 attachment.\n`, stderr: '' });

    const thread = await until(async () => {
      const list = await json(bea, ['mail', 'list']);
      return list.threads.find((t: { subject: string }) => t.subject === 'Q3 notes');
    });
    const api = await w.p.get(`/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${boxB}/threads`, { token: b.token });
    expect(await json(bea, ['mail', 'list'])).toEqual(api.body);
    const table = await bea.run(['mail', 'list']);
    expect(normTimes(table.stdout)).toMatchInlineSnapshot(`
"   THREAD                          FROM  SUBJECT                MSGS  LAST
*  thr_xxxxxxxxxxxxxxxxxxxxxxxxxx  Ana   Q3 notes [attachment]  1     YYYY-MM-DD hh:mm
"
`);
    const read = await bea.run(['mail', 'read', thread.threadId]);
    expect(read.code).toBe(0);
    expect(normTimes(read.stdout)).toBe(
      [
        'Message: msg_xxxxxxxxxxxxxxxxxxxxxxxxxx',
        `From:    Ana <${addressA}>`,
        `To:      ${addressB}`,
        'Date:    YYYY-MM-DD hh:mm',
        'Subject: Q3 notes',
        'Attached: notes.txt (text/plain, 18 B)',
        '',
        'Here are the notes.',
        '',
      ].join('\n'),
    );
    // Read now: no longer marked.
    expect((await bea.run(['mail', 'list'])).stdout).toMatch(/^ {2}THREAD .*\n {2}thr_/);
  });

  it('reply by message id: quoted, in the thread with In-Reply-To and References; by thread id; to your own', async () => {
    const theirs = await json(bea, ['mail', 'list', '-q', 'subject:"Q3 notes"']);
    const threadB = theirs.threads[0].threadId as string;
    const original = (await json(bea, ['mail', 'read', threadB])).messages[0];
    const replied = await bea.run(['mail', 'reply', original.messageId, '--body', 'Thanks, got them.']);
    expect(replied).toEqual({ code: 0, stdout: `Sent "Re: Q3 notes" to ${addressA}.\n`, stderr: '' });
    // Bea's copy joins her thread.
    expect((await json(bea, ['mail', 'read', threadB])).messages).toHaveLength(2);

    // Ana's thread (her sent message) gets the reply, which names hers in In-Reply-To and References.
    const threadA = (await json(ana, ['mail', 'list', '--label', 'SENT', '-q', 'subject:"Q3 notes"'])).threads[0]
      .threadId as string;
    const [sentA, reply] = await until(async () => {
      const read = await json(ana, ['mail', 'read', threadA]);
      return read.messages.length === 2 ? read.messages : undefined;
    });
    expect(reply).toMatchObject({
      subject: 'Re: Q3 notes',
      from: { address: addressB },
      inReplyTo: sentA.headerId,
      references: [sentA.headerId],
    });
    expect(reply.body.text).toMatch(
      new RegExp(
        `^Thanks, got them\\.\\n\\nOn \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d, Ana <${addressA}> wrote:\\n> Here are the notes\\.\\n?$`,
      ),
    );

    // A thread id: its last message (Bea's reply); --all adds no one but Ana, who is the sender here.
    const again = await ana.run(['mail', 'reply', threadA, '--all', '--body', 'Good.', '--json']);
    expect(again.code).toBe(0);
    const sentAgain = JSON.parse(again.stdout).message;
    expect(sentAgain).toMatchObject({
      subject: 'Re: Q3 notes',
      to: [{ address: addressB }],
      cc: [],
      inReplyTo: reply.headerId,
    });
    // Answering your own message goes to its recipients.
    const own = await ana.run(['mail', 'reply', sentA.messageId, '--no-quote', '--body', 'One more thing.', '--json']);
    expect(JSON.parse(own.stdout).message).toMatchObject({ to: [{ address: addressB }], cc: [] });
  });

  it('forward: Fwd: subject, the message under its headers, its attachment taken from the mailbox', async () => {
    const theirs = await json(bea, ['mail', 'list', '-q', 'subject:"Q3 notes"']);
    const original = (await json(bea, ['mail', 'read', theirs.threads[0].threadId])).messages[0];
    const forwarded = await bea.run(['mail', 'forward', original.messageId, '--to', addressA, '--body', 'FYI']);
    expect(forwarded).toEqual({
      code: 0,
      stdout: `Sent "Fwd: Q3 notes" to ${addressA} with 1 attachment.\n`,
      stderr: '',
    });
    const thread = await until(async () => {
      const list = await json(ana, ['mail', 'list', '-q', 'subject:"Fwd: Q3 notes"']);
      return list.threads.find((t: { subject: string }) => t.subject === 'Fwd: Q3 notes');
    });
    // Same subject but for Fwd: and the same people: it joins Ana's thread of the original, last.
    const message = (await json(ana, ['mail', 'read', thread.threadId])).messages.at(-1);
    expect(message.subject).toBe('Fwd: Q3 notes');
    expect(message.attachments).toEqual([expect.objectContaining({ filename: 'notes.txt', size: 18 })]);
    expect(message.inReplyTo).toBeNull();
    expect(message.body.text).toMatch(
      new RegExp(
        `^FYI\\n\\n---------- Forwarded message ---------\\nFrom: Ana <${addressA}>\\nDate: .+\\nSubject: Q3 notes\\nTo: ${addressB}\\n\\nHere are the notes\\.\\n*$`,
      ),
    );
  });

  it('reply and forward: no text, no recipient, an unknown message', async () => {
    const text = await bea.run(['mail', 'reply', 'msg_x']);
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(
      /^Error: Write the reply: --body TEXT, or --body-file FILE \(-: stdin\)\.\n\nUsage: platform mail reply /,
    );
    const to = await bea.run(['mail', 'forward', 'msg_x']);
    expect(to.code).toBe(2);
    expect(to.stderr).toMatch(/^Error: mail forward needs --to ADDR\.\n/);
    const unknown = await bea.run(['mail', 'forward', 'msg_nosuchmessage', '--to', addressA]);
    expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'Error: Message not found\n' });
  });

  it('usage mistakes before any request; a mailbox you are not in is named', async () => {
    const none = await ana.run(['mail', 'send', '-s', 'x']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^Error: Name a recipient: --to <address>\.\n\nUsage: platform mail send/);
    const other = await ana.run(['mail', 'list', '--mailbox', addressB]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(new RegExp(`^Error: You have no mailbox ${addressB} \\(yours: ${addressA}\\)\\.`));
    const missing = await ana.run(['mail', 'send', '--to', addressB, '--attach', 'no-such-file']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^Error: no-such-file is not a file \(or is empty\)\./);
  });
});

describe('cal', () => {
  it('add with an attendee, the agenda in a zone; the attendee accepts; export and import .ics', async () => {
    const added = await ana.run([
      'cal',
      'add',
      'Design review',
      '--start',
      '2026-12-01 14:00',
      '--duration',
      '45m',
      '--location',
      'Room 2',
      '--attendee',
      addressB,
    ]);
    expect(added.stdout).toMatch(
      /^Added evt_\w+: Design review, 2026-12-01 14:00:00 to 2026-12-01 14:45:00 \(Europe\/Paris\)\. Invited 1 by mail\.\n$/,
    );
    const agenda = await ana.run(['cal', 'agenda', '--from', '2026-12-01', '--days', '2']);
    expect(norm(agenda.stdout)).toMatchInlineSnapshot(`
"DAY             TIME         WHAT           WHERE   YOU        EVENT
Tue 2026-12-01  14:00-14:45  Design review  Room 2  organizer  evt_xxxxxxxxxxxxxxxxxxxxxxxxxx
(Europe/Paris)
"
`);
    const from = Date.UTC(2026, 10, 30, 23);
    const api = await w.p.get(
      `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${boxA}/events?from=${from}&to=${from + 2 * 86_400_000}`,
    );
    expect(await json(ana, ['cal', 'agenda', '--from', '2026-12-01', '--days', '2'])).toEqual(api.body);

    // Bea's copy arrives by mail, waiting for her answer.
    const copy = await until(async () => {
      const res = await json(bea, ['cal', 'agenda', '--from', '2026-12-01', '--days', '1']);
      return res.occurrences.find((o: { summary: string }) => o.summary === 'Design review');
    });
    expect(copy.myStatus).toBe('needs-action');
    expect((await bea.run(['cal', 'respond', copy.eventId, 'accepted'])).stdout).toBe(
      `You accepted ${copy.eventId}. The organizer was told.\n`,
    );
    const bad = await bea.run(['cal', 'respond', copy.eventId, 'perhaps']);
    expect(bad.code).toBe(2);

    const exported = await ana.run(['cal', 'export']);
    expect(exported.stdout).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(exported.stdout).toContain('SUMMARY:Design review');
    const dir = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'cli-cal-'));
    bea.cwd = dir;
    const calendar = await w.p.post(
      `/v1/orgs/${w.p.org.orgId}/mail/mailboxes/${boxB}/calendars`,
      { name: 'Imported' },
      { token: b.token },
    );
    const fixture = join(__dirname, '..', 'fixtures', 'calendar', 'meetup-devopsdc.ics');
    const imported = await bea.run(['cal', 'import', fixture, '--calendar', calendar.body.calendar.calendarId]);
    expect(imported).toEqual({
      code: 0,
      stdout: 'Imported 3, updated 0, skipped 0.\n',
      stderr: `Importing ${fixture}: 3 events\n`,
    });
    const file = await bea.run(['cal', 'export', '--calendar', calendar.body.calendar.calendarId, '-o', 'out.ics']);
    expect(file.stdout).toBe('Wrote 3 events to out.ics.\n');
    expect(readFileSync(join(dir, 'out.ics'), 'utf8').match(/^BEGIN:VEVENT/gm)).toHaveLength(3);
  });

  it('usage mistakes: a bad zone, a bad time, --end with --duration', async () => {
    const zone = await ana.run(['cal', 'agenda', '--zone', 'Mars/Olympus']);
    expect(zone.code).toBe(2);
    expect(zone.stderr).toMatch(/^Error: Unknown time zone Mars\/Olympus: use an IANA name/);
    const time = await ana.run(['cal', 'add', 'x', '--start', 'tomorrow']);
    expect(time.stderr).toMatch(/^Error: --start takes a date and time: YYYY-MM-DD HH:MM/);
    const both = await ana.run([
      'cal',
      'add',
      'x',
      '--start',
      '2026-12-01 10:00',
      '--end',
      '11:00',
      '--duration',
      '1h',
    ]);
    expect(both.stderr).toMatch(/^Error: Give --end or --duration, not both\./);
  });
});
