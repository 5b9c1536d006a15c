import { Readable } from 'node:stream';
import { FLUSH, PktError, pkt, readPkts, sideBand } from '../../functions/git/pkt-line';
import { DEFAULT_BRANCH_DELETE, protectedMessage, refusals } from '../../functions/git/protect';
import {
  mergeReport,
  readPushCommands,
  refusalReport,
  reportedRefs,
  writePushCommands,
  ZERO_ID,
} from '../../functions/git/receive-pack';
import { basicPassword } from '../../functions/git/serve';

/**
 * The git endpoint's reading of a push (pkt-lines before the pack) and its report, byte by byte
 * as git writes and reads them (gitprotocol-pack, gitprotocol-common). The whole endpoint with
 * the git CLI: test/repos/git-http.test.ts.
 */
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const chunksOf = (buf: Buffer, size: number) =>
  Readable.from(Array.from({ length: Math.ceil(buf.length / size) }, (_, i) => buf.subarray(i * size, (i + 1) * size)))[
    Symbol.asyncIterator
  ]() as AsyncIterator<Buffer>;

it('reads the commands before the pack, however the body is cut, and leaves the pack unread', async () => {
  const section = Buffer.concat([
    pkt(`${A} ${B} refs/heads/main\0report-status side-band-64k agent=git/2.39\n`),
    pkt(`${ZERO_ID} ${B} refs/heads/feature\n`),
    FLUSH,
  ]);
  const pack = Buffer.from('PACK\0\0\0\x02rest-of-the-pack');
  for (const size of [1, 3, 7, 1000]) {
    const chunks = chunksOf(Buffer.concat([section, pack]), size);
    const read = await readPushCommands(chunks);
    expect(read.updates).toEqual([
      { old: A, next: B, ref: 'refs/heads/main' },
      { old: ZERO_ID, next: B, ref: 'refs/heads/feature' },
    ]);
    expect(read.capabilities).toEqual(['report-status', 'side-band-64k', 'agent=git/2.39']);
    const rest: Buffer[] = [read.rest];
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) rest.push(next.value);
    expect(Buffer.concat(rest)).toEqual(pack);
  }
  // Written again with fewer commands: the capabilities ride on the first line.
  const again = await readPushCommands(
    chunksOf(writePushCommands([{ old: ZERO_ID, next: B, ref: 'refs/heads/feature' }], ['report-status']), 5),
  );
  expect(again).toMatchObject({ updates: [{ ref: 'refs/heads/feature' }], capabilities: ['report-status'] });
});

it("a shallow clone's push: its shallow lines before the commands are kept, and written again first", async () => {
  const section = Buffer.concat([pkt(`shallow ${A}\n`), pkt(`${A} ${B} refs/heads/main\0report-status\n`), FLUSH]);
  const read = await readPushCommands(chunksOf(section, 3));
  expect(read).toMatchObject({
    shallow: [A],
    updates: [{ old: A, next: B, ref: 'refs/heads/main' }],
    capabilities: ['report-status'],
  });
  expect(writePushCommands(read.updates, read.capabilities, read.shallow)).toEqual(section);
  // Only before the commands: after one, it is a malformed command.
  await expect(
    readPushCommands(chunksOf(Buffer.concat([pkt(`${A} ${B} refs/heads/main\n`), pkt(`shallow ${A}\n`), FLUSH]), 4)),
  ).rejects.toThrow(PktError);
});

it('a malformed command section is a PktError, never a crash', async () => {
  for (const bad of [
    Buffer.from('zzzz'),
    Buffer.concat([pkt(`${A} ${B} main\n`), FLUSH]),
    Buffer.concat([pkt(`${A} ${B} refs/heads/a b\n`), FLUSH]),
    Buffer.concat([pkt(`${A.slice(1)} ${B} refs/heads/main\n`), FLUSH]),
    Buffer.from('0003'),
    pkt(`${A} ${B} refs/heads/main\n`),
  ]) {
    await expect(readPushCommands(chunksOf(bad, 4))).rejects.toThrow(PktError);
  }
});

it('refuses moving the protected branch, deleting the default one, and refs that are not branches or tags', () => {
  const rules = { defaultBranch: 'main', protectedBranch: 'main' };
  expect(
    refusals(
      [
        { old: A, next: B, ref: 'refs/heads/main' },
        { old: A, next: B, ref: 'refs/heads/feature' },
        { old: ZERO_ID, next: B, ref: 'refs/tags/v1' },
        { old: ZERO_ID, next: B, ref: 'refs/pull/1/head' },
      ],
      rules,
    ),
  ).toEqual([
    { ref: 'refs/heads/main', reason: protectedMessage('main') },
    { ref: 'refs/pull/1/head', reason: 'Only branches and tags can be pushed.' },
  ]);
  expect(
    refusals([{ old: A, next: ZERO_ID, ref: 'refs/heads/main' }], { defaultBranch: 'main', protectedBranch: null }),
  ).toEqual([{ ref: 'refs/heads/main', reason: DEFAULT_BRANCH_DELETE }]);
  expect(
    refusals([{ old: A, next: B, ref: 'refs/heads/main' }], { defaultBranch: 'main', protectedBranch: null }),
  ).toEqual([]);
});

it("adds the refused refs to the backend's report, inside side-band when asked, progress kept", () => {
  const inner = Buffer.concat([pkt('unpack ok\n'), pkt('ok refs/heads/feature\n'), FLUSH]);
  const progress = pkt(Buffer.concat([Buffer.from([2]), Buffer.from('Resolving deltas: 100%\r')]));
  const answer = Buffer.concat([progress, sideBand(1, inner), FLUSH]);
  const merged = mergeReport(
    answer,
    [{ ref: 'refs/heads/main', reason: 'main is protected.' }],
    ['report-status', 'side-band-64k'],
  );
  const outer = readPkts(merged).pkts;
  expect(outer.at(-1)).toEqual({ kind: 'flush' });
  const data = outer.filter((p) => p.kind === 'data') as { payload: Buffer }[];
  expect(data[0]?.payload[0]).toBe(2);
  const report = readPkts(Buffer.concat(data.filter((p) => p.payload[0] === 1).map((p) => p.payload.subarray(1))));
  expect(report.pkts.map((p) => (p.kind === 'data' ? p.payload.toString() : p.kind))).toEqual([
    'unpack ok\n',
    'ok refs/heads/feature\n',
    'ng refs/heads/main main is protected.\n',
    'flush',
  ]);
  // Without side-band, the report itself.
  const plain = mergeReport(inner, [{ ref: 'refs/heads/main', reason: 'no' }], ['report-status']);
  expect(plain.toString()).toContain('ng refs/heads/main no\n');
  // Nothing refused: the answer as it was.
  expect(mergeReport(answer, [], ['report-status', 'side-band-64k'])).toBe(answer);
});

it('answers a push refused whole with its own report; none when git asked for none', () => {
  const report = refusalReport([{ ref: 'refs/heads/main', reason: 'main is protected.' }], ['report-status']);
  expect(readPkts(report).pkts.map((p) => (p.kind === 'data' ? p.payload.toString() : p.kind))).toEqual([
    'unpack ok\n',
    'ng refs/heads/main main is protected.\n',
    'flush',
  ]);
  expect(refusalReport([{ ref: 'refs/heads/main', reason: 'x' }], [])).toHaveLength(0);
});

it('takes the password of Basic auth, or a token given as the user name', () => {
  const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;
  expect(basicPassword(basic('git:app_secret'))).toBe('app_secret');
  expect(basicPassword(basic('app_secret:'))).toBe('app_secret');
  expect(basicPassword(basic('app_secret'))).toBe('app_secret');
  expect(basicPassword('Bearer x')).toBeUndefined();
  expect(basicPassword(undefined)).toBeUndefined();
  expect(basicPassword(basic(':'))).toBeUndefined();
});

describe('CodeCommit Basic credentials (as git-remote-codecommit makes them)', () => {
  it('user is the key id (with the session token); password is the time, Z, and a SigV4 signature', async () => {
    const { codecommitBasic } = await import('../../shared/ports/git/http-codecommit');
    const now = new Date('2026-11-25T04:30:00.000Z');
    const creds = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
    const a = codecommitBasic('plt-repo', 'eu-central-1', creds, now);
    expect(a.user).toBe('AKIDEXAMPLE');
    expect(a.path).toBe('/v1/repos/plt-repo');
    expect(a.password).toMatch(/^20261125T043000Z[0-9a-f]{64}$/);
    // Signed over the repository, the region and the time: any change changes it.
    expect(codecommitBasic('plt-other', 'eu-central-1', creds, now).password).not.toBe(a.password);
    expect(codecommitBasic('plt-repo', 'eu-west-1', creds, now).password).not.toBe(a.password);
    expect(codecommitBasic('plt-repo', 'eu-central-1', creds, new Date(now.getTime() + 1000)).password).not.toBe(
      a.password,
    );
    expect(codecommitBasic('plt-repo', 'eu-central-1', { ...creds, sessionToken: 'TOKEN' }, now).user).toBe(
      'AKIDEXAMPLE%TOKEN',
    );
  });
});

it("reads the backend's report: ok and ng per ref, inside side-band or not; none without report-status", () => {
  const inner = Buffer.concat([
    pkt('unpack ok\n'),
    pkt('ok refs/heads/main\n'),
    pkt('ng refs/tags/v1 failed to update ref\n'),
    FLUSH,
  ]);
  const expected = new Map([
    ['refs/heads/main', true],
    ['refs/tags/v1', false],
  ]);
  expect(reportedRefs(inner, ['report-status'])).toEqual(expected);
  const banded = Buffer.concat([sideBand(2, Buffer.from('Resolving deltas\n')), sideBand(1, inner), FLUSH]);
  expect(reportedRefs(banded, ['report-status', 'side-band-64k'])).toEqual(expected);
  expect(reportedRefs(inner, [])).toBeUndefined();
  // Cut short before the report: no report, so the endpoint checks the refs instead.
  expect(reportedRefs(Buffer.from('00'), ['report-status'])).toBeUndefined();
});
