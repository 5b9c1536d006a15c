import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { checkKey, PLATFORM_WRITER, reportCheck } from '../../shared/domains/repos/checks';
import { db } from '../../shared/kernel/store/client';
import { TABLE } from '../../shared/kernel/store/table';
import { type Person, TestPlatform } from '../helpers/platform';
import { type Receiver, startReceiver } from '../helpers/receiver';
import { startQueueWorker } from '../helpers/sqs';
import { until } from '../helpers/until';
import { gitCli } from '../repos/git-cli';

/**
 * Check runs on commits and pull requests, on the local platform with the git CLI: reported by an
 * API key (again under the same name: the same check runs again), moved forward only, listed with
 * cursors per commit and per pull request's head; required by branch protection (a merge names the
 * check that holds it; a push makes a head with none); `check.completed` reaches a webhook endpoint
 * and, when a check failed, the pull request's author as a notice. The platform's names (`build`)
 * are its own; a check belongs to its writer; a required check bound to a writer counts only its check.
 */
let p: TestPlatform;
let developer: Person;
let key: string;
let readKey: string;
let home: string;
let receiver: Receiver;
let worker: { stop: () => Promise<void> } | undefined;
let n = 0;
const unique = (base = 'chk') => `${base}-${Date.now().toString(36)}-${(n++).toString(36)}`;
const repos = () => `/v1/orgs/${p.org.orgId}/repos`;

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'checks-'));
  home = mkdtempSync(join(process.env.TEST_DATA_DIR as string, 'checks-home-'));
  receiver = await startReceiver();
  worker = await startQueueWorker('notify', 'webhooks');
  p = await TestPlatform.start();
  developer = await p.person('developer');
  key = await p.apiKey(['git:read', 'git:write']);
  readKey = await p.apiKey(['git:read']);
});
afterAll(async () => {
  await p.close();
  await worker?.stop();
  receiver.close();
});

const { ok } = gitCli(() => home);

/** A repository with `app.txt` on main and `feature` one commit ahead; a pull request from it by the developer. */
async function setup() {
  const name = unique();
  const res = await p.post(repos(), { name, readme: true });
  expect(res.status).toBe(201);
  const url = (res.body.repo.cloneUrl as string).replace('://', `://git:${key}@`);
  const dir = join(mkdtempSync(join(home, 'w-')), 'repo');
  await ok(home, ['clone', '-q', url, dir]);
  await ok(dir, ['checkout', '-q', '-b', 'feature']);
  writeFileSync(join(dir, 'app.txt'), 'one\n');
  await ok(dir, ['add', '.']);
  await ok(dir, ['commit', '-q', '-m', 'Add app']);
  await ok(dir, ['push', '-q', 'origin', 'feature']);
  const head = (await ok(dir, ['rev-parse', 'HEAD'])).trim();
  const base = `${repos()}/${name}`;
  const opened = await p.post(
    `${base}/pulls`,
    { title: 'Add app', source: 'feature', target: 'main' },
    { token: developer.token },
  );
  expect(opened.status).toBe(201);
  const number = opened.body.pull.number as number;
  return { name, dir, head, base, number, checks: `${base}/commits/${head}/checks`, pull: `${base}/pulls/${number}` };
}

const post = (path: string, body: unknown, token = key) => p.post(path, body, { token });

describe('check runs', () => {
  it('are created, run again under the same name, moved forward only, and listed per commit and pull request', async () => {
    const { head, checks, pull } = await setup();
    const made = await post(checks, { name: 'lint', summary: 'Waiting', detailsUrl: 'https://ci.example.com/1' });
    expect(made.status).toBe(201);
    const check = made.body.check;
    expect(check).toEqual({
      checkId: expect.stringMatching(/^chk_/),
      orgId: p.org.orgId,
      repoId: expect.any(String),
      commitId: head,
      name: 'lint',
      state: 'queued',
      summary: 'Waiting',
      detailsUrl: 'https://ci.example.com/1',
      startedAt: null,
      completedAt: null,
      createdBy: expect.stringMatching(/^key_/),
      createdByKind: 'api_key',
      source: { apiKey: made.body.check?.createdBy },
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
      version: 1,
    });

    const started = await p.patch(`${checks}/${check.checkId}`, { state: 'in_progress' }, { token: key });
    expect(started.status).toBe(200);
    expect(started.body.check).toMatchObject({ state: 'in_progress', startedAt: expect.any(Number), version: 2 });
    const done = await p.patch(
      `${checks}/${check.checkId}`,
      { state: 'success', summary: 'Clean', ifVersion: 2 },
      { token: key },
    );
    expect(done.body.check).toMatchObject({
      state: 'success',
      summary: 'Clean',
      startedAt: started.body.check.startedAt,
      completedAt: expect.any(Number),
      version: 3,
    });

    const back = await p.patch(`${checks}/${check.checkId}`, { state: 'queued' }, { token: key });
    expect(back.status).toBe(409);
    expect(back.body).toEqual({
      error: `Check "lint" is success and can't move to queued. Create it again to run it again.`,
    });
    const running = await post(checks, { name: 'test', state: 'in_progress' });
    const queuedAgain = await p.patch(`${checks}/${running.body.check.checkId}`, { state: 'queued' }, { token: key });
    expect(queuedAgain.status).toBe(409);
    expect(queuedAgain.body.error).toBe(
      `Check "test" is in_progress and can't move to queued. Create it again to run it again.`,
    );
    const stale = await p.patch(`${checks}/${check.checkId}`, { summary: 'x', ifVersion: 1 }, { token: key });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: 'The check changed. Reload and try again.' });

    // Reported again under its name: the same check runs again, its times start over.
    const again = await post(checks, { name: 'lint' });
    expect(again.status).toBe(200);
    expect(again.body.check).toMatchObject({
      checkId: check.checkId,
      state: 'queued',
      summary: 'Clean',
      startedAt: null,
      completedAt: null,
      version: 4,
    });

    const first = await p.get(`${checks}?limit=1`, { token: readKey });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      commitId: head,
      checks: [{ name: 'lint' }],
      cursor: expect.any(String),
      summary: { state: 'pending', total: 2, counts: { queued: 1, in_progress: 1, success: 0 } },
    });
    const second = await p.get(`${checks}?limit=1&cursor=${first.body.cursor}`);
    expect(second.body.checks.map((c: { name: string }) => c.name)).toEqual(['test']);
    expect((await p.get(`${checks}?limit=1&cursor=${second.body.cursor}`)).body.checks).toEqual([]);
    const forged = await p.get(`${checks}?cursor=abc.def`);
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ error: 'Invalid page cursor. Run the request again.' });

    const ofPull = await p.get(`${pull}/checks`, { token: developer.token });
    expect(ofPull.status).toBe(200);
    expect(ofPull.body).toMatchObject({
      head,
      required: [],
      requiredStatus: [],
      cursor: null,
      summary: { state: 'pending', total: 2 },
    });
    expect(ofPull.body.checks).toHaveLength(2);
    const detail = await p.get(pull);
    expect(detail.body.pull.checks).toEqual({
      state: 'pending',
      total: 2,
      counts: { queued: 1, in_progress: 1, success: 0, failure: 0, cancelled: 0 },
      required: [],
      requiredStatus: [],
    });
  });

  it('refuses bad input, unknown commits and checks, other scopes and organizations with the exact errors', async () => {
    const { name, checks, base } = await setup();
    const expectError = async (
      res: Promise<{ status: number; body: { error: string } }>,
      status: number,
      error?: string,
    ) => {
      const r = await res;
      expect(r.status).toBe(status);
      if (error) expect(r.body.error).toBe(error);
    };
    await expectError(post(`${base}/commits/${'a'.repeat(40)}/checks`, { name: 'x' }), 404, 'Commit not found');
    await expectError(post(`${base}/commits/HEAD/checks`, { name: 'x' }), 404, 'Commit not found');
    await expectError(p.get(`${base}/commits/${'b'.repeat(40)}/checks`), 404, 'Commit not found');
    await expectError(
      post(`${repos()}/nope-${unique()}/commits/${'a'.repeat(40)}/checks`, { name: 'x' }),
      404,
      'Repository not found',
    );
    await expectError(post(checks, { name: '' }), 400);
    await expectError(post(checks, { name: 'a'.repeat(101) }), 400);
    const twoLines = await post(checks, { name: 'lint\nmore' });
    expect(twoLines.status).toBe(400);
    expect(twoLines.text).toContain('name');
    await expectError(post(checks, { name: 'lint', state: 'done' }), 400);
    await expectError(post(checks, { name: 'lint', detailsUrl: 'javascript:alert(1)' }), 400);
    await expectError(post(checks, { name: 'lint', summary: 'x'.repeat(4097) }), 400);
    await expectError(p.patch(`${checks}/chk_nothing`, { state: 'success' }), 404, 'Check not found');
    await expectError(post(checks, { name: 'lint' }, readKey), 403);
    const other = await p.newOrg();
    const otherKey = await p.apiKey(['git:read', 'git:write'], other.org.orgId);
    // Another organization's key names no organization of its own in the path.
    expect((await post(checks, { name: 'intruder' }, otherKey)).status).toBe(404);
    expect(
      (await p.get(`/v1/orgs/${other.org.orgId}/repos/${name}/commits/${'a'.repeat(40)}/checks`, { token: otherKey }))
        .body,
    ).toEqual({ error: 'Repository not found' });
    expect((await p.get(checks)).body.checks).toEqual([]);
  });

  it('holds at most 100 checks per commit', async () => {
    const { checks, head } = await setup();
    const made = await post(checks, { name: 'c000' });
    const { repoId } = made.body.check;
    // 99 more written straight to the table, as the route writes them.
    const items = Array.from({ length: 99 }, (_, i) => ({
      ...made.body.check,
      ...checkKey(repoId, head, `c${String(i + 1).padStart(3, '0')}`),
      checkId: `chk_filler${i}`,
      name: `c${String(i + 1).padStart(3, '0')}`,
    }));
    for (let i = 0; i < items.length; i += 25) {
      await db.send(
        new BatchWriteCommand({
          RequestItems: { [TABLE()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
        }),
      );
    }
    const over = await post(checks, { name: 'one-more' });
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ error: 'A commit can have up to 100 checks.' });
    // An existing name still runs again.
    expect((await post(checks, { name: 'c000', state: 'success' })).status).toBe(200);
  });
});

describe('required checks', () => {
  it('hold the merge naming the check until it succeeds on the head; a push starts them over', async () => {
    const { base, dir, checks, pull, head } = await setup();
    const protect = await p.put(`${base}/protection`, { requiredChecks: ['e2e', 'e2e'] });
    expect(protect.status).toBe(200);
    expect(protect.body).toEqual({ requiredApprovals: 0, requiredChecks: ['e2e'], branch: 'main' });
    expect((await p.get(`${base}/protection`)).body).toEqual(protect.body);
    // Leaving a field out keeps it.
    expect((await p.put(`${base}/protection`, { requiredApprovals: 0 })).body.requiredChecks).toEqual(['e2e']);
    expect((await p.get(pull)).body.pull.checks).toMatchObject({ state: 'none', total: 0, required: ['e2e'] });

    const merge = () => p.post(`${pull}/merge`, { strategy: 'three-way' });
    const missing = await merge();
    expect(missing.status).toBe(409);
    expect(missing.body).toEqual({ error: 'Required check "e2e" has not run on the latest commit.' });

    const lint = await post(checks, { name: 'lint', state: 'failure' });
    expect(lint.status).toBe(201);
    const e2e = await post(checks, { name: 'e2e', state: 'failure', summary: 'npm run e2e failed' });
    const failed = await merge();
    expect(failed.status).toBe(409);
    expect(failed.body).toEqual({ error: 'Required check "e2e" is failure; it must succeed to merge.' });
    expect((await post(checks, { name: 'e2e', state: 'in_progress' })).body.check.checkId).toBe(e2e.body.check.checkId);
    expect((await merge()).body).toEqual({ error: 'Required check "e2e" is in_progress; it must succeed to merge.' });
    expect((await post(checks, { name: 'e2e', state: 'success' })).status).toBe(200);

    // A new commit: its head has no checks, so the required one is missing again.
    writeFileSync(join(dir, 'app.txt'), 'two\n');
    await ok(dir, ['commit', '-q', '-am', 'Change app']);
    await ok(dir, ['push', '-q', 'origin', 'feature']);
    const newHead = (await ok(dir, ['rev-parse', 'HEAD'])).trim();
    expect(newHead).not.toBe(head);
    const detail = await p.get(pull);
    expect(detail.body.pull).toMatchObject({ head: newHead, checks: { state: 'none', total: 0 } });
    expect((await p.get(`${pull}/checks`)).body).toMatchObject({ head: newHead, checks: [], required: ['e2e'] });
    expect((await merge()).body).toEqual({ error: 'Required check "e2e" has not run on the latest commit.' });

    expect((await post(`${base}/commits/${newHead}/checks`, { name: 'e2e', state: 'success' })).status).toBe(201);
    const merged = await merge();
    expect(merged.status).toBe(200);
    expect(merged.body.merged).toBe(true);
    // Merged: its checks stay those of the head merged.
    expect((await p.get(`${pull}/checks`)).body).toMatchObject({ head: newHead, summary: { state: 'success' } });
  });

  it('refuse bad names and protect only a pushed branch', async () => {
    const { base } = await setup();
    for (const bad of [[''], ['two\nlines'], Array.from({ length: 21 }, (_, i) => `c${i}`), 'build']) {
      expect((await p.put(`${base}/protection`, { requiredChecks: bad })).status).toBe(400);
    }
    const empty = unique('empty');
    expect((await p.post(repos(), { name: empty })).status).toBe(201);
    const refused = await p.put(`${repos()}/${empty}/protection`, { requiredChecks: ['build'] });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'Push a branch before protecting it.' });
    const off = await p.put(`${base}/protection`, { requiredChecks: [] });
    expect(off.body).toEqual({ requiredApprovals: 0, requiredChecks: [], branch: null });
  });
});

/** The preview build's report of its `build` check (shared/domains/deployments/previews.ts), as the platform writes it. */
const platformReports = (repoId: string, sha: string, state: 'success' | 'failure', detailsUrl: string) =>
  reportCheck(p.org.orgId, repoId, sha, 'build', state, { summary: 'Preview', detailsUrl, ...PLATFORM_WRITER });

describe("the platform's checks and each check's writer", () => {
  it('refuse the name "build" to anyone but the platform, however it is written; the platform still writes it', async () => {
    const { checks, head } = await setup();
    const reserved = { error: 'Check name "build" is reserved for the platform.' };
    for (const name of ['build', ' build ', 'BUILD', 'Build', '\uFF42uild', 'bu\u200Bild']) {
      const forged = await post(checks, { name, state: 'success', detailsUrl: 'https://evil.example.com/' });
      expect({ name, status: forged.status, body: forged.body }).toEqual({ name, status: 409, body: reserved });
    }
    const byPerson = await p.post(checks, { name: 'build', state: 'success' }, { token: developer.token });
    expect(byPerson.status).toBe(409);
    expect(byPerson.body).toEqual(reserved);
    expect((await p.get(checks)).body.checks).toEqual([]);

    // The preview build reports it: the platform's check, with its build log.
    const repoId = (await post(checks, { name: 'lint' })).body.check.repoId as string;
    const log = `/v1/orgs/${p.org.orgId}/deployments/dpl_1/build-log`;
    const { created } = await platformReports(repoId, head, 'failure', log);
    expect(created).toBe(true);
    const listed = (await p.get(checks)).body.checks.find((c: { name: string }) => c.name === 'build');
    expect(listed).toMatchObject({
      name: 'build',
      state: 'failure',
      detailsUrl: log,
      createdBy: 'platform',
      createdByKind: 'system',
      source: 'platform',
    });
    // Nobody else moves it or reports it again; the platform does.
    const forged = await post(checks, { name: 'build', state: 'success', detailsUrl: 'https://evil.example.com/' });
    expect(forged).toMatchObject({ status: 409, body: reserved });
    const patched = await p.patch(`${checks}/${listed.checkId}`, { state: 'success' }, { token: key });
    expect(patched).toMatchObject({ status: 409, body: reserved });
    expect((await platformReports(repoId, head, 'success', log)).check).toMatchObject({
      checkId: listed.checkId,
      state: 'success',
      createdBy: 'platform',
    });
  });

  it("belong to their writer: another key's or a person's report or update is refused; the writer is shown", async () => {
    const { checks } = await setup();
    const other = await p.apiKey(['git:read', 'git:write']);
    const lint = await post(checks, { name: 'lint', state: 'failure', detailsUrl: 'https://ci.example.com/1' });
    expect(lint.status).toBe(201);
    const keyId = lint.body.check.createdBy as string;
    expect(lint.body.check).toMatchObject({ createdByKind: 'api_key', source: { apiKey: keyId } });
    const taken = {
      error: 'Check "lint" on this commit was reported by another writer; only its writer can change it.',
    };
    const byOther = await post(
      checks,
      { name: 'lint', state: 'success', detailsUrl: 'https://evil.example.com/' },
      other,
    );
    expect(byOther).toMatchObject({ status: 409, body: taken });
    expect(await p.patch(`${checks}/${lint.body.check.checkId}`, { state: 'success' }, { token: other })).toMatchObject(
      { status: 409, body: taken },
    );
    const byPerson = await p.post(checks, { name: 'lint', state: 'success' }, { token: developer.token });
    expect(byPerson).toMatchObject({ status: 409, body: taken });
    // Unchanged: the writer's result, details and author.
    const [kept] = (await p.get(checks)).body.checks;
    expect(kept).toMatchObject({
      state: 'failure',
      detailsUrl: 'https://ci.example.com/1',
      createdBy: keyId,
      source: { apiKey: keyId },
      version: 1,
    });
    // Its writer reports it again; a person's own check shows them as its writer.
    expect((await post(checks, { name: 'lint', state: 'success' })).body.check).toMatchObject({ state: 'success' });
    const mine = await p.post(checks, { name: 'manual-qa', state: 'success' }, { token: developer.token });
    expect(mine.status).toBe(201);
    expect(mine.body.check).toMatchObject({
      createdBy: developer.userId,
      createdByKind: 'user',
      source: { user: developer.userId },
    });
  });
});

describe('required checks bound to their writer', () => {
  it("count only the bound writer's check: an API key's check of a platform-bound name does not merge", async () => {
    const { base, checks, pull, head } = await setup();
    const other = await p.apiKey(['git:read', 'git:write']);
    // Reported before the rule binds the names: by another key (e2e) and by the key (lint).
    const e2e = await post(checks, { name: 'e2e', state: 'success' }, other);
    const otherId = e2e.body.check.createdBy as string;
    const lint = await post(checks, { name: 'lint', state: 'success' });
    const keyId = lint.body.check.createdBy as string;
    const rule = [
      { name: 'e2e', source: 'platform' },
      { name: 'lint', source: { apiKey: keyId } },
      'docs',
      { name: 'docs' },
    ];
    const protect = await p.put(`${base}/protection`, { requiredChecks: rule });
    expect(protect.status).toBe(200);
    expect(protect.body).toEqual({
      requiredApprovals: 0,
      requiredChecks: [{ name: 'e2e', source: 'platform' }, { name: 'lint', source: { apiKey: keyId } }, 'docs'],
      branch: 'main',
    });
    expect((await p.get(`${base}/protection`)).body).toEqual(protect.body);

    const merge = () => p.post(`${pull}/merge`, { strategy: 'three-way' });
    const refused = await merge();
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'Required check "e2e" has not run on the latest commit.' });
    const view = await p.get(`${pull}/checks`);
    expect(view.body.requiredStatus).toEqual([
      {
        name: 'e2e',
        source: 'platform',
        state: 'missing',
        satisfied: false,
        checkId: null,
        reportedBy: { apiKey: otherId },
        message: `Required check "e2e" has not run on the latest commit: it must come from the platform, and the check of that name is from API key ${otherId}.`,
      },
      {
        name: 'lint',
        source: { apiKey: keyId },
        state: 'success',
        satisfied: true,
        checkId: lint.body.check.checkId,
        reportedBy: null,
        message: null,
      },
      {
        name: 'docs',
        source: null,
        state: 'missing',
        satisfied: false,
        checkId: null,
        reportedBy: null,
        message: 'Required check "docs" has not run on the latest commit.',
      },
    ]);
    expect((await p.get(pull)).body.pull.checks.requiredStatus).toEqual(view.body.requiredStatus);

    // A bound name is its writer's in the repository now: another writer's report is refused.
    const squat = await post(checks, { name: 'LINT', state: 'failure' }, other);
    expect(squat).toMatchObject({
      status: 409,
      body: { error: `Check "lint" is required from API key ${keyId} in this repository; only it reports that name.` },
    });

    // A plain name: any writer's check counts. The platform-bound one: only the platform's.
    expect((await post(checks, { name: 'docs', state: 'success' }, other)).status).toBe(201);
    expect((await merge()).body).toEqual({ error: 'Required check "e2e" has not run on the latest commit.' });
    const platformBuild = { name: 'build', source: 'platform' };
    expect((await p.put(`${base}/protection`, { requiredChecks: [platformBuild, 'docs'] })).status).toBe(200);
    expect((await merge()).body).toEqual({ error: 'Required check "build" has not run on the latest commit.' });
    await platformReports(lint.body.check.repoId, head, 'success', '/log');
    const merged = await merge();
    expect(merged.status).toBe(200);
  });

  it('refuse a name required twice from different writers, a platform name bound to a key, and unknown keys', async () => {
    const { base, checks } = await setup();
    const keyId = (await post(checks, { name: 'x' })).body.check.createdBy as string;
    const put = (requiredChecks: unknown) => p.put(`${base}/protection`, { requiredChecks });
    expect(await put(['lint', { name: 'lint', source: 'platform' }])).toMatchObject({
      status: 400,
      body: { error: 'Check "lint" is required twice with different sources.' },
    });
    expect(await put([{ name: ' Build ', source: { apiKey: 'key_01ABC' } }])).toMatchObject({
      status: 400,
      body: { error: 'Check name "build" is reserved for the platform.' },
    });
    expect(await put([{ name: 'lint', source: { apiKey: 'key_01NOSUCHKEY' } }])).toMatchObject({
      status: 400,
      body: { error: 'API key "key_01NOSUCHKEY" not found.' },
    });
    // A key of this organization, but not an agent key.
    expect(await put([{ name: 'lint', source: { agentKey: keyId } }])).toMatchObject({
      status: 400,
      body: { error: `Agent key "${keyId}" not found.` },
    });
    for (const bad of [
      [{ name: 'lint', source: 'someone' }],
      [{ name: 'lint', source: { apiKey: 'nope' } }],
      [{ name: 'lint', source: { user: 'usr_1' } }],
      [{ name: 'lint', extra: true }],
      [{ source: 'platform' }],
    ]) {
      expect((await put(bad)).status).toBe(400);
    }
    expect((await put([{ name: 'lint', source: { apiKey: keyId } }, ' BUILD '])).body.requiredChecks).toEqual([
      { name: 'lint', source: { apiKey: keyId } },
      'build',
    ]);
  });
});

describe('check.completed', () => {
  it('reaches a webhook endpoint for every outcome; a failure notifies the author in-app', async () => {
    const path = `/checks-${unique()}`;
    const hook = await p.post(`/v1/orgs/${p.org.orgId}/webhooks`, {
      url: `https://localhost:${receiver.port}${path}`,
      events: ['check.completed'],
    });
    expect(hook.status).toBe(201);
    const { checks, name, number, head } = await setup();
    const lint = await post(checks, { name: 'lint', state: 'in_progress' });
    await p.patch(`${checks}/${lint.body.check.checkId}`, { state: 'success' }, { token: key });
    await post(checks, { name: 'e2e', state: 'failure', detailsUrl: 'https://ci.example.com/log/7' });
    const calls = await until(() => (receiver.callsTo(path).length >= 2 ? receiver.callsTo(path) : undefined));
    const payloads = calls.map((c) => JSON.parse(c.body));
    expect(payloads.map((x) => `${x.data.attributes.name}:${x.data.attributes.state}`).sort()).toEqual([
      'e2e:failure',
      'lint:success',
    ]);
    const failure = payloads.find((x) => x.data.attributes.state === 'failure');
    expect(failure).toMatchObject({
      type: 'check.completed',
      data: {
        orgId: p.org.orgId,
        attributes: { name: 'e2e', state: 'failure', repo: name, commitId: head, pulls: String(number) },
        title: `Check "e2e" failed in ${name} (#${number})`,
        url: 'https://ci.example.com/log/7',
      },
    });
    expect(calls[0]?.headers['webhook-signature']).toMatch(/^v1,/);

    // Both events were handled (their deliveries sent): only the failure made a notice, for the author.
    const notices = await until(async () => {
      const all = (await p.get('/v1/me/notifications', { token: developer.token })).body.notices;
      const found = all.filter((x: { event: string; title: string }) => x.title.includes(` in ${name} `));
      return found.length > 0 ? found : undefined;
    });
    expect(notices).toEqual([
      expect.objectContaining({
        event: 'check.completed',
        title: `Check "e2e" failed in ${name} (#${number})`,
        url: 'https://ci.example.com/log/7',
      }),
    ]);
  });
});
