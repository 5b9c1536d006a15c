import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { Client } from '../../client';
import { profileName, readConfigFile, writeConfigFile } from '../config';
import { CliError, UsageError } from '../context';
import { selfCommand } from '../git';
import { table, when } from '../output';
import { repoImportCommand } from '../repo-import';
import { repoPush } from '../repo-push';
import type { CommandSpec, Ctx } from '../spec';
import { checkName, requiredCheckArg, shownRequired } from './checks';
import { bodyOf, currentBranch, git, intOption, list, numberArg, REPO, repoNameOf, repoOf } from './common';

/** `repo`, `pr`, `issue` and `key` (git credentials): repositories and their work, over the typed client. */

const org = async (c: Ctx) => {
  const s = await c.session();
  return { s, api: s.api, orgId: s.config.orgId };
};

const width = (c: Ctx) => c.io;

/** The credential helper git runs for the platform's URLs: this command line, answering the profile's token. */
function credentialHelper(c: Ctx): string {
  // The script this command line runs as (a bundle has no bin.cjs beside it: see selfCommand).
  const self = selfCommand(c.io.self);
  // The profile is pinned: switching profiles later does not change what this clone authenticates as.
  const profile = profileName(c.io.env, c.str('profile'));
  const program = self.map((word) => `"${word}"`).join(' ');
  return `!${program} auth git-credential --profile '${profile.replace(/'/g, '')}'`;
}

const origin = (url: string) => new URL(url).origin;

/**
 * Makes git ask this command line for the password of `url`'s origin, in the repository's config
 * (`folder`) or the user's global one: an empty helper first, so helpers set elsewhere (a
 * keychain's) are not asked for the platform's URLs, then ours (as gh auth setup-git does).
 */
async function setCredentialHelper(c: Ctx, where: { folder: string } | 'global', url: string): Promise<string> {
  const key = `credential.${origin(url)}.helper`;
  const scope = where === 'global' ? ['--global'] : [];
  const cwd = where === 'global' ? c.io.cwd : where.folder;
  await git(c, cwd, ['config', ...scope, '--replace-all', key, '']);
  await git(c, cwd, ['config', ...scope, '--add', key, credentialHelper(c)]);
  return key;
}

/** A person's access token (a JWT) is no git password: git over HTTPS takes keys and git credentials. */
const isAccessToken = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);

/**
 * The password git will be given for this profile in this organization: the API key itself, or
 * for a person a git credential made once and kept in the profile (the config file is 0600).
 */
async function ensureGitPassword(c: Ctx): Promise<void> {
  const s = await c.session();
  if (!isAccessToken(s.config.token) || s.config.gitPasswords?.[s.config.orgId]) return;
  const made = await s.api.postGitCredentials({
    orgId: s.config.orgId,
    body: { name: `platform cli on ${hostname()}`.slice(0, 64), scopes: ['git:read', 'git:write'] },
  });
  const name = profileName(c.io.env, c.str('profile'));
  const file = readConfigFile(c.io.env);
  const profile = file.profiles[name];
  if (!profile) return;
  profile.gitPasswords = { ...profile.gitPasswords, [s.config.orgId]: made.password };
  writeConfigFile(c.io.env, file);
  c.io.stderr(`Made git credential ${made.credential.keyId} for this profile (platform key list).\n`);
}

/** `pr comment` and `issue comment`: the same command over their own route. */
function commentCommand(
  group: 'pr' | 'issue',
  what: string,
  post: (
    api: Client,
    input: { orgId: string; name: string; number: string; body: { body: string } },
  ) => Promise<unknown>,
): CommandSpec {
  return {
    path: [group, 'comment'],
    summary: `comment on ${what}`,
    positionals: [{ name: 'number', required: true }],
    options: {
      repo: REPO,
      body: { type: 'string', value: 'TEXT', help: 'the comment' },
      'body-file': { type: 'string', value: 'FILE', help: 'the comment, from a file (-: stdin)', complete: 'file' },
    },
    examples: [
      `platform ${group} comment 12 --body "Fixed in 3a9945e."`,
      `platform ${group} comment 12 --body-file notes.md`,
    ],
    run: async (c) => {
      const name = await repoOf(c);
      const number = numberArg(c);
      const body = await bodyOf(c);
      if (!body) throw new UsageError('Give the comment: --body TEXT (or --body-file FILE).');
      const { api, orgId } = await org(c);
      const res = await post(api, { orgId, name, number, body: { body } });
      return c.print(res, () => `Commented on #${number}.`);
    },
  };
}

/**
 * `repo create --source FOLDER [--remote NAME] [--push]`: the work tree, the remote's name and the
 * branch checked out, checked before the repository is made (a git work tree, no such remote yet,
 * a commit to push), so a refusal leaves no empty repository behind.
 */
async function sourceOf(c: Ctx): Promise<{ folder: string; remote: string; branch?: string } | undefined> {
  const given = c.str('source');
  if (given === undefined) {
    if (c.flag('push') || c.str('remote')) throw new UsageError('--push and --remote go with --source FOLDER.');
    return undefined;
  }
  if (c.flag('readme') || c.str('gitignore') || c.str('license'))
    throw new UsageError(
      '--source fills the repository from your folder: leave out --readme, --gitignore and --license.',
    );
  const dir = resolve(c.io.cwd, given);
  const folder = await git(c, dir, ['rev-parse', '--show-toplevel']).catch(() => {
    throw new CliError(`${dir} is not in a git repository (git init, then commit).`);
  });
  const remote = c.str('remote') ?? 'origin';
  const existing = await git(c, folder, ['remote', 'get-url', remote]).catch(() => undefined);
  if (existing !== undefined)
    throw new CliError(`${folder} has a remote ${remote} already (${existing}): name another with --remote NAME.`);
  const branch = await git(c, folder, ['symbolic-ref', '--short', '-q', 'HEAD']).catch(() => undefined);
  if (c.flag('push')) {
    if (!branch) throw new CliError(`${folder} has no branch checked out to push (git switch <branch>).`);
    const head = await git(c, folder, ['rev-parse', '--verify', '-q', 'HEAD']).catch(() => undefined);
    if (!head) throw new CliError(`${branch} has no commit yet to push (git commit first).`);
  }
  return { folder, remote, branch };
}

export const REPO_COMMANDS: CommandSpec[] = [
  repoImportCommand,
  {
    path: ['repo', 'list'],
    aliases: ['ls'],
    summary: "the organization's repositories",
    examples: ['platform repo list'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.getRepos({ orgId });
      return c.print(res, () =>
        res.repos.length === 0
          ? 'No repositories yet. Create one: platform repo create <name>'
          : table(
              [
                ['NAME', 'DEFAULT BRANCH', 'UPDATED', 'DESCRIPTION'],
                ...res.repos.map((r) => [r.name, r.defaultBranch ?? '-', when(r.updatedAt), r.description ?? '']),
              ],
              width(c),
              [0, 2],
            ),
      );
    },
  },
  {
    path: ['repo', 'create'],
    summary: 'create a repository',
    positionals: [{ name: 'name', required: true }],
    options: {
      description: { type: 'string', value: 'TEXT', help: 'what it holds' },
      readme: { type: 'boolean', help: 'start with a README (a first commit)' },
      gitignore: {
        type: 'string',
        value: 'Node|Next.js|Python|Go|Rust',
        help: 'start with this .gitignore',
        complete: ['Node', 'Next.js', 'Python', 'Go', 'Rust'],
      },
      license: {
        type: 'string',
        value: 'MIT|Apache-2.0',
        help: 'start with this licence',
        complete: ['MIT', 'Apache-2.0'],
      },
      'default-branch': {
        type: 'string',
        value: 'B',
        help: 'the default branch (default: main; with --source, its current branch)',
      },
      source: {
        type: 'string',
        value: 'FOLDER',
        help: 'a local git repository to add it to as a remote (with the credential helper)',
        complete: 'file',
      },
      remote: { type: 'string', value: 'NAME', help: 'the remote of --source (default: origin)' },
      push: { type: 'boolean', help: 'with --source: push its current branch (upstream set)' },
    },
    examples: ['platform repo create api --readme --gitignore Node', 'platform repo create api --source . --push'],
    run: async (c) => {
      const source = await sourceOf(c);
      const { api, orgId } = await org(c);
      const res = await api.postRepos({
        orgId,
        body: {
          name: c.args[0] as string,
          description: c.str('description'),
          readme: c.flag('readme') || undefined,
          gitignore: c.str('gitignore') as 'Node' | undefined,
          license: c.str('license') as 'MIT' | undefined,
          defaultBranch: c.str('default-branch') ?? source?.branch,
        },
      });
      const created = `Created repository ${res.repo.name}: ${res.repo.cloneUrl}`;
      if (!source) return c.print(res, () => created);
      const say = (line: string) => {
        if (!c.json) c.io.stdout(`${line}\n`);
      };
      say(created);
      await ensureGitPassword(c);
      await git(c, source.folder, ['remote', 'add', source.remote, res.repo.cloneUrl]);
      await setCredentialHelper(c, { folder: source.folder }, res.repo.cloneUrl);
      say(`Added remote ${source.remote} (${res.repo.cloneUrl}).`);
      if (c.flag('push')) {
        await git(c, source.folder, ['push', '-q', '--set-upstream', source.remote, 'HEAD']).catch((err: Error) => {
          // The repository and the remote stay: a history past the 6 MB a push takes goes in increments.
          throw new CliError(`${err.message}\nA history past 6 MB: platform repo push ${source.remote}`);
        });
        say(`Pushed ${source.branch} to ${source.remote}.`);
      }
      return c.print({ ...res, remote: source.remote, pushed: c.flag('push') ? source.branch : null }, () => '');
    },
  },
  {
    path: ['repo', 'view'],
    summary: 'a repository: branches, protection, open issues and pull requests, clone URL',
    positionals: [{ name: 'name', complete: 'repo' }],
    options: { repo: REPO },
    examples: ['platform repo view api', 'platform repo view'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const name = c.args[0] ?? (await repoOf(c));
      const r = await api.getReposByName({ orgId, name });
      return c.print(r, () =>
        [
          `${r.name}${r.description ? ` — ${r.description}` : ''}`,
          `clone:        ${r.cloneUrl}`,
          `default:      ${r.defaultBranch}${r.empty ? ' (empty)' : ''}`,
          `branches:     ${r.branches.join(', ') || '-'}`,
          `protected:    ${r.protectedBranch ?? '-'} (${r.requiredApprovals} approvals required)`,
          `open issues:  ${r.openIssues}`,
          `open pulls:   ${r.openPulls}`,
        ].join('\n'),
      );
    },
  },
  {
    path: ['repo', 'rename'],
    summary: 'rename a repository (its clone URL changes)',
    positionals: [
      { name: 'name', required: true, complete: 'repo' },
      { name: 'new-name', required: true },
    ],
    examples: ['platform repo rename api orders-api'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.postReposRename({ orgId, name: c.args[0] as string, body: { name: c.args[1] as string } });
      return c.print(res, () => `Renamed ${c.args[0]} to ${res.name}.`);
    },
  },
  {
    path: ['repo', 'delete'],
    summary: 'delete a repository and its history (--yes: no question)',
    positionals: [{ name: 'name', required: true, complete: 'repo' }],
    options: { yes: { type: 'boolean', help: 'confirm: the repository and its history are gone for good' } },
    examples: ['platform repo delete scratch --yes'],
    run: async (c) => {
      const name = c.args[0] as string;
      if (!c.flag('yes')) throw new UsageError(`Deleting ${name} cannot be undone: add --yes.`);
      const { api, orgId } = await org(c);
      await api.deleteReposByName({ orgId, name, confirm: name });
      return c.print({ deleted: name }, () => `Deleted repository ${name}.`);
    },
  },
  {
    path: ['repo', 'protect'],
    summary: 'approvals and checks a pull request needs before it merges into the default branch',
    details:
      'Without options, shows the rule. --require-check adds a check that must succeed on the head of a pull\n' +
      "request (repeat it): NAME (any writer's check of that name counts) or NAME@platform, NAME@key:KEY_ID,\n" +
      'NAME@agent:KEY_ID (only a check from that writer counts); --drop-check removes one by name; the other\n' +
      'settings stay as they are.',
    positionals: [{ name: 'name', complete: 'repo' }],
    options: {
      repo: REPO,
      approvals: { type: 'string', value: 'N', help: 'required approvals (0: none; without: show)' },
      'require-check': {
        type: 'string',
        value: 'NAME',
        help: 'a check that must succeed, NAME[@platform|@key:ID|@agent:ID] (repeat it)',
        multiple: true,
      },
      'drop-check': { type: 'string', value: 'NAME', help: 'no longer require this check (repeat it)', multiple: true },
    },
    examples: [
      'platform repo protect api --approvals 1',
      'platform repo protect api --require-check build',
      'platform repo protect api --require-check lint@key:key_01J…',
    ],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const name = c.args[0] ?? (await repoOf(c));
      const approvals = intOption(c, 'approvals', 0, 10);
      const adding = c
        .all('require-check')
        .flatMap((v) => list(v) ?? [])
        .map(requiredCheckArg);
      const dropping = c.all('drop-check').flatMap((v) => list(v) ?? []);
      let res = await api.getReposProtection({ orgId, name });
      if (approvals !== undefined || adding.length > 0 || dropping.length > 0) {
        // A name added again replaces its entry in place (its source too).
        const byName = new Map(res.requiredChecks.map((r) => [checkName(r), r]));
        for (const r of adding) byName.set(checkName(r), r);
        const checks = [...byName.values()].filter((r) => !dropping.includes(checkName(r)));
        res = await api.putReposProtection({
          orgId,
          name,
          body: {
            ...(approvals !== undefined ? { requiredApprovals: approvals } : {}),
            ...(adding.length > 0 || dropping.length > 0 ? { requiredChecks: checks } : {}),
          },
        });
      }
      const checks =
        res.requiredChecks.length > 0 ? ` Required checks: ${res.requiredChecks.map(shownRequired).join(', ')}.` : '';
      return c.print(
        res,
        () =>
          `${name}: ${res.requiredApprovals} approvals required to merge into ${res.branch ?? 'the default branch'}.${checks}`,
      );
    },
  },
  {
    path: ['repo', 'clone'],
    summary: "clone a repository, with git's credential helper set to this profile",
    details:
      'The clone asks platform for its password (auth git-credential), so pushes and fetches need no token in\n' +
      'the URL nor a prompt.',
    positionals: [
      { name: 'name', required: true, complete: 'repo' },
      { name: 'folder', complete: 'file' },
    ],
    examples: ['platform repo clone api', 'cd api && git push'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const name = c.args[0] as string;
      const r = await api.getReposByName({ orgId, name });
      const folder = resolve(c.io.cwd, c.args[1] ?? name);
      if (existsSync(folder)) throw new CliError(`${folder} exists already.`);
      await ensureGitPassword(c);
      const helper = `credential.${origin(r.cloneUrl)}.helper`;
      if (!c.json) c.io.stderr(`Cloning ${r.cloneUrl} into ${folder}…\n`);
      await git(c, c.io.cwd, [
        '-c',
        `${helper}=`,
        '-c',
        `${helper}=${credentialHelper(c)}`,
        'clone',
        '-q',
        r.cloneUrl,
        folder,
      ]);
      await setCredentialHelper(c, { folder }, r.cloneUrl);
      return c.print({ ...r, folder }, () => `Cloned ${name} into ${folder}.`);
    },
  },
  {
    path: ['repo', 'push'],
    summary: 'push a history of any size, in pushes that each fit the 6 MB limit',
    details:
      "Walks the branch's history (first parent, from what the remote has to the tip) and pushes it in\n" +
      "increments whose pack each stays under the limit, with git and the remote's own credentials; other\n" +
      'refs given are pushed after it as git pushes them. Interrupted, it goes on where it stopped when run\n' +
      'again. A commit too large alone is refused: keep its large files in Git LFS (git lfs track, git lfs\n' +
      'migrate import). Defaults: origin, the current branch.',
    positionals: [
      { name: 'remote', help: 'the remote (default: origin)' },
      { name: 'branch', help: 'the local branch (default: the current one)', complete: 'branch' },
      { name: 'ref…', help: 'more refs, pushed as git pushes them' },
    ],
    examples: ['platform repo push', 'platform repo push origin main v1.0'],
    run: repoPush,
  },
  {
    path: ['auth', 'git-credential'],
    hidden: true,
    summary: "git's credential helper: answers the profile's token for get",
    positionals: [{ name: 'operation' }],
    run: async (c) => {
      if (c.args[0] !== 'get') return 0;
      await c.io.stdin();
      const s = await c.session();
      c.io.stdout(`username=git\npassword=${s.config.gitPasswords?.[s.config.orgId] ?? s.config.token}\n`);
      return 0;
    },
  },
  {
    path: ['auth', 'setup-git'],
    summary: "make git ask platform for the password of the platform's git URLs, in every repository",
    details:
      "Sets git's credential helper for the platform's git address (that of the API, and that of its clone\n" +
      'URLs when they differ) in your global git config (~/.gitconfig, or GIT_CONFIG_GLOBAL), pinned to the\n' +
      'profile in use, as gh auth setup-git does: any clone of a platform repository then pushes and\n' +
      'fetches without a token in its URL. Run it again after moving the platform folder.',
    examples: ['platform auth setup-git', 'platform auth setup-git --profile work'],
    run: async (c) => {
      const { s, api, orgId } = await org(c);
      await ensureGitPassword(c);
      const urls = [s.config.baseUrl];
      // Clone URLs may name another host (GIT_BASE_URL): one repository's tells.
      const [first] = (await api.getRepos({ orgId })).repos;
      if (first) urls.push((await api.getReposByName({ orgId, name: first.name })).cloneUrl);
      const origins = [...new Set(urls.map(origin))];
      const keys: string[] = [];
      for (const url of origins) keys.push(await setCredentialHelper(c, 'global', url));
      return c.print({ origins, keys, helper: credentialHelper(c) }, () =>
        origins.map((o) => `Git now asks platform for the password of ${o} (${keys[origins.indexOf(o)]}).`).join('\n'),
      );
    },
  },
  {
    path: ['key', 'list'],
    aliases: ['ls'],
    summary: 'your git credentials in this organization (passwords for git over HTTPS)',
    examples: ['platform key list'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.getGitCredentials({ orgId });
      return c.print(res, () =>
        res.credentials.length === 0
          ? 'No git credentials. Create one: platform key create <name>'
          : table(
              [
                ['ID', 'NAME', 'SCOPES', 'CREATED', 'EXPIRES'],
                ...res.credentials.map((k) => [
                  k.keyId,
                  k.name,
                  k.scopes.join(','),
                  when(k.createdAt),
                  k.expiresAt ? when(k.expiresAt) : 'never',
                ]),
              ],
              width(c),
              [0, 3, 4],
            ),
      );
    },
  },
  {
    path: ['key', 'create'],
    summary: 'create a git credential; its password is shown once',
    positionals: [{ name: 'name', required: true }],
    options: {
      scopes: { type: 'string', value: 'git:read,git:write', help: 'what it may do (default: both)' },
      days: { type: 'string', value: 'N', help: 'it expires after N days (default: never)' },
    },
    examples: ['platform key create laptop --scopes git:read --days 90'],
    run: async (c) => {
      const scopes = (list(c.str('scopes')) ?? ['git:read', 'git:write']) as ('git:read' | 'git:write')[];
      for (const scope of scopes) {
        if (scope !== 'git:read' && scope !== 'git:write')
          throw new UsageError(`Unknown scope ${scope}: use git:read, git:write.`);
      }
      const expiresInDays = intOption(c, 'days', 1, 3650);
      const { api, orgId } = await org(c);
      const res = await api.postGitCredentials({ orgId, body: { name: c.args[0] as string, scopes, expiresInDays } });
      return c.print(
        res,
        () =>
          `Created ${res.credential.keyId} (${res.credential.scopes.join(', ')}).\n` +
          `username: ${res.username}\npassword: ${res.password}\nThe password is shown only now.`,
      );
    },
  },
  {
    path: ['key', 'revoke'],
    summary: 'revoke a git credential: it stops working at once',
    positionals: [{ name: 'keyId', required: true }],
    examples: ['platform key revoke gcr_01m8bhkc6vx3w8m2ts0cq9a7rn'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      await api.deleteGitCredentialsByKeyId({ orgId, keyId: c.args[0] as string });
      return c.print({ revoked: c.args[0] }, () => `Revoked ${c.args[0]}.`);
    },
  },
  {
    path: ['member', 'list'],
    aliases: ['ls'],
    summary: "the organization's members, teams and pending invitations",
    examples: ['platform member list'],
    run: async (c) => {
      const { api, orgId } = await org(c);
      const res = await api.getMembers({ orgId });
      return c.print(res, () => {
        const rows = [
          ['EMAIL', 'NAME', 'ROLE', 'JOINED'],
          ...res.members.map((m) => [m.email ?? m.userId, m.name ?? '', m.role, when(m.joinedAt)]),
          ...(res.invites ?? []).map((i) => [i.email, '(invited)', i.role, `expires ${when(i.expiresAt)}`]),
        ];
        return table(rows, width(c), [2, 3]);
      });
    },
  },
  // Pull requests.
  {
    path: ['pr', 'create'],
    summary: 'open a pull request from the current branch (pushed first)',
    options: {
      repo: REPO,
      title: { type: 'string', value: 'T', help: "its title (default: the last commit's subject)" },
      body: { type: 'string', value: 'TEXT', help: 'its description' },
      'body-file': { type: 'string', value: 'FILE', help: 'its description, from a file (-: stdin)', complete: 'file' },
      base: {
        type: 'string',
        value: 'B',
        help: 'the branch to merge into (default: the default branch)',
        complete: 'branch',
      },
      head: { type: 'string', value: 'B', help: 'the branch to merge (default: the current one)', complete: 'branch' },
      'no-push': { type: 'boolean', help: 'do not push the branch first' },
    },
    examples: ['git switch -c fix-typo && git commit -am "Fix a typo"', 'platform pr create --title "Fix a typo"'],
    run: async (c) => {
      const name = await repoOf(c);
      const head = c.str('head') ?? (await currentBranch(c));
      if (!head) throw new UsageError('Name the branch: --head <branch> (or run it on a branch).');
      const { api, orgId } = await org(c);
      const base = c.str('base') ?? (await api.getReposByName({ orgId, name })).defaultBranch;
      if (head === base) throw new UsageError(`${head} is the branch to merge into: switch to another branch.`);
      if (!c.flag('no-push') && !c.str('head'))
        await git(c, c.io.cwd, ['push', '-q', 'origin', `HEAD:refs/heads/${head}`]);
      const title = c.str('title') ?? (await git(c, c.io.cwd, ['log', '-1', '--format=%s']));
      const res = await api.postReposPulls({
        orgId,
        name,
        body: { title, description: await bodyOf(c), source: head, target: base },
      });
      return c.print(res, () => `Opened pull request #${res.pull.number} of ${name}: ${head} into ${base}.`);
    },
  },
  {
    path: ['pr', 'list'],
    aliases: ['ls'],
    summary: "a repository's pull requests (newest update first)",
    options: {
      repo: REPO,
      state: {
        type: 'string',
        value: 'open|closed|merged|all',
        help: 'which (default: open)',
        complete: ['open', 'closed', 'merged', 'all'],
      },
      limit: { type: 'string', value: 'N', help: 'at most N (default 30)' },
    },
    examples: ['platform pr list', 'platform pr list --state all --repo api'],
    run: async (c) => {
      const name = await repoOf(c);
      const state = c.str('state') ?? 'open';
      if (!['open', 'closed', 'merged', 'all'].includes(state))
        throw new UsageError(`Unknown state ${state}: use open, closed, merged, all.`);
      const limit = intOption(c, 'limit', 1, 100) ?? 30;
      const { api, orgId } = await org(c);
      const states = (state === 'all' ? ['open', 'closed', 'merged'] : [state]) as ('open' | 'closed' | 'merged')[];
      const pages = await Promise.all(states.map((s) => api.getReposPulls({ orgId, name, state: s, limit })));
      const pulls = pages
        .flatMap((p) => p.pulls)
        .sort((a, b) => Number(b.updatedAt ?? 0) - Number(a.updatedAt ?? 0))
        .slice(0, limit);
      const res = state === 'all' ? { pulls } : { ...pages[0], pulls };
      return c.print(res, () =>
        pulls.length === 0
          ? `No ${state === 'all' ? '' : `${state} `}pull requests in ${name}.`
          : table(
              [
                ['#', 'STATE', 'TITLE', 'BRANCH', 'AUTHOR', 'UPDATED'],
                ...pulls.map((p) => [
                  String(p.number),
                  p.state ?? state,
                  p.title,
                  `${p.sourceBranch} → ${p.targetBranch}`,
                  p.authorName ?? p.authorEmail ?? p.authorId,
                  when(p.updatedAt),
                ]),
              ],
              width(c),
              [0, 1, 5],
              1,
            ),
      );
    },
  },
  {
    path: ['pr', 'view'],
    summary: 'a pull request with its review state (approvals, rules), its preview and comments',
    positionals: [{ name: 'number', required: true }],
    options: { repo: REPO },
    examples: ['platform pr view 12', 'platform pr view 12 --repo api --json'],
    run: async (c) => {
      const name = await repoOf(c);
      const number = numberArg(c);
      const { api, orgId } = await org(c);
      const [pr, review] = await Promise.all([
        api.getReposPullsByNumber({ orgId, name, number }),
        api.getReposPullsReview({ orgId, name, number }),
      ]);
      return c.print({ ...pr, review }, () => {
        const p = pr.pull;
        const approvedBy = review.approvals.map((a) => a.name || a.email || a.id).join(', ') || 'nobody';
        const lines = [
          `#${p.number} ${p.title} [${p.state ?? 'open'}]`,
          `${p.sourceBranch} → ${p.targetBranch}, by ${p.authorName ?? p.authorEmail ?? p.authorId}, ${when(p.createdAt)}`,
          `review: ${review.approved ? 'approved' : 'not approved'} (${review.approvals.length} of ${review.required} required; by ${approvedBy})`,
          ...review.rules.map(
            (r) => `  rule ${r.name}: ${r.required} required, ${r.satisfied ? 'satisfied' : 'not satisfied'}`,
          ),
          `merge: ${pr.conflicts.length ? `${pr.conflicts.length} conflicting files` : pr.mergeOptions.join(', ') || '-'}`,
          `preview: ${p.preview ? `${p.preview.url} [${p.preview.state}${p.preview.skipped ? ', skipped' : ''}]` : '-'}`,
        ];
        if (p.deployment) lines.push(`deployment: ${p.deployment.deploymentId} [${p.deployment.status}]`);
        if (p.description) lines.push('', p.description);
        for (const cm of pr.comments)
          lines.push('', `${cm.authorName ?? cm.authorEmail ?? cm.authorId}, ${when(cm.createdAt)}:`, cm.body);
        return lines.join('\n');
      });
    },
  },
  {
    path: ['pr', 'diff'],
    summary: 'the changes of a pull request, as a unified diff',
    positionals: [{ name: 'number', required: true }],
    options: { repo: REPO },
    examples: ['platform pr diff 12 | less'],
    run: async (c) => {
      const name = await repoOf(c);
      const number = numberArg(c);
      const { api, orgId } = await org(c);
      const res = await api.getReposPullsFiles({ orgId, name, number });
      return c.print(res, () =>
        res.files
          .map((f) => {
            const head = `diff --git a/${f.path} b/${f.path}\n--- ${f.change === 'added' ? '/dev/null' : `a/${f.path}`}\n+++ ${f.change === 'deleted' ? '/dev/null' : `b/${f.path}`}`;
            if (f.binary) return `${head}\nBinary file`;
            const hunks = f.hunks.map(
              (h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join('\n')}`,
            );
            return [head, ...hunks].join('\n');
          })
          .join('\n'),
      );
    },
  },
  commentCommand('pr', 'a pull request', (api, input) => api.postReposPullsComments(input)),
  {
    path: ['pr', 'approve'],
    summary: 'approve a pull request (--revoke: take the approval back)',
    positionals: [{ name: 'number', required: true }],
    options: { repo: REPO, revoke: { type: 'boolean', help: 'take your approval back' } },
    examples: ['platform pr approve 12', 'platform pr approve 12 --revoke'],
    run: async (c) => {
      const name = await repoOf(c);
      const number = numberArg(c);
      const { api, orgId } = await org(c);
      const res = await api.postReposPullsApproval({ orgId, name, number, body: { approve: !c.flag('revoke') } });
      return c.print(res, () => (c.flag('revoke') ? `Took back your approval of #${number}.` : `Approved #${number}.`));
    },
  },
  {
    path: ['pr', 'merge'],
    summary: 'merge a pull request',
    positionals: [{ name: 'number', required: true }],
    options: {
      repo: REPO,
      strategy: {
        type: 'string',
        value: 'squash|fast-forward|three-way',
        help: 'how (default: squash)',
        complete: ['squash', 'fast-forward', 'three-way'],
      },
      message: { type: 'string', value: 'M', help: 'the merge commit message' },
    },
    examples: ['platform pr merge 3 --strategy three-way'],
    run: async (c) => {
      const name = await repoOf(c);
      const number = numberArg(c);
      const strategy = (c.str('strategy') ?? 'squash') as 'squash';
      if (!['squash', 'fast-forward', 'three-way'].includes(strategy)) {
        throw new UsageError(`Unknown strategy ${strategy}: use squash, fast-forward, three-way.`);
      }
      const { api, orgId } = await org(c);
      const res = await api.postReposPullsMerge({ orgId, name, number, body: { strategy, message: c.str('message') } });
      const closed = res.closedIssues.length
        ? ` Closed issues ${res.closedIssues.map((n) => `#${n}`).join(', ')}.`
        : '';
      return c.print(
        res,
        () =>
          `Merged #${number} (${strategy})${res.mergeCommitId ? `: ${res.mergeCommitId.slice(0, 12)}` : ''}.${closed}`,
      );
    },
  },
  ...(['close', 'reopen'] as const).map(
    (verb): CommandSpec => ({
      path: ['pr', verb],
      summary: `${verb} a pull request`,
      positionals: [{ name: 'number', required: true }],
      options: { repo: REPO },
      examples: [`platform pr ${verb} 12`, `platform pr ${verb} 12 --repo api`],
      run: async (c) => {
        const name = await repoOf(c);
        const number = numberArg(c);
        const { api, orgId } = await org(c);
        const input = { orgId, name, number };
        const res = verb === 'close' ? await api.postReposPullsClose(input) : await api.postReposPullsReopen(input);
        return c.print(res, () => `#${number} is ${res.state}.`);
      },
    }),
  ),
  {
    path: ['pr', 'checkout'],
    summary: "check out a pull request's branch here (fetched from origin)",
    positionals: [{ name: 'number', required: true }],
    options: { repo: REPO },
    examples: ['platform pr checkout 12'],
    run: async (c) => {
      const name = await repoOf(c);
      const number = numberArg(c);
      const { api, orgId } = await org(c);
      const { pull } = await api.getReposPullsByNumber({ orgId, name, number });
      await git(c, c.io.cwd, ['fetch', '-q', 'origin', `refs/heads/${pull.sourceBranch}`]);
      await git(c, c.io.cwd, ['checkout', '-q', '-B', pull.sourceBranch, 'FETCH_HEAD']);
      const head = await git(c, c.io.cwd, ['rev-parse', 'HEAD']);
      return c.print({ pull, head }, () => `Switched to ${pull.sourceBranch} (#${number}) at ${head.slice(0, 12)}.`);
    },
  },
  // Repository issues.
  {
    path: ['issue', 'create'],
    summary: 'open an issue in a repository',
    options: {
      repo: REPO,
      title: { type: 'string', value: 'T', help: 'its title', required: true },
      body: { type: 'string', value: 'TEXT', help: 'its description' },
      'body-file': { type: 'string', value: 'FILE', help: 'its description, from a file (-: stdin)', complete: 'file' },
      label: { type: 'string', value: 'A,B', help: 'labels' },
    },
    examples: ['platform issue create --title "Crash on start" --label bug'],
    run: async (c) => {
      const name = await repoOf(c);
      const title = c.str('title');
      if (!title) throw new UsageError('Give the title: --title T.');
      const { api, orgId } = await org(c);
      const res = await api.postReposIssues({
        orgId,
        name,
        body: { title, body: await bodyOf(c), labels: list(c.str('label')) },
      });
      return c.print(res, () => `Opened issue #${res.issue.number} in ${name}.`);
    },
  },
  {
    path: ['issue', 'list'],
    aliases: ['ls'],
    summary: "a repository's issues",
    options: {
      repo: REPO,
      state: { type: 'string', value: 'open|closed', help: 'which (default: open)', complete: ['open', 'closed'] },
      label: { type: 'string', value: 'L', help: 'with this label' },
      limit: { type: 'string', value: 'N', help: 'at most N' },
    },
    examples: ['platform issue list --label bug', 'platform issue list --state closed --repo api'],
    run: async (c) => {
      const name = await repoOf(c);
      const state = (c.str('state') ?? 'open') as 'open';
      if (!['open', 'closed'].includes(state)) throw new UsageError(`Unknown state ${state}: use open, closed.`);
      const limit = intOption(c, 'limit', 1, 100);
      const { api, orgId } = await org(c);
      const res = await api.getReposIssues({ orgId, name, state, label: c.str('label'), limit });
      return c.print(res, () =>
        res.issues.length === 0
          ? `No ${state} issues in ${name}.`
          : table(
              [
                ['#', 'TITLE', 'LABELS', 'AUTHOR', 'UPDATED'],
                ...res.issues.map((i) => [
                  String(i.number),
                  i.title,
                  (i.labels ?? []).join(','),
                  i.authorName ?? i.authorEmail ?? i.authorId,
                  when(i.updatedAt),
                ]),
              ],
              width(c),
              [0, 4],
            ),
      );
    },
  },
  {
    path: ['issue', 'view'],
    summary: 'an issue and its comments',
    positionals: [{ name: 'number', required: true }],
    options: { repo: REPO },
    examples: ['platform issue view 7'],
    run: async (c) => {
      const name = await repoOf(c);
      const number = numberArg(c);
      const { api, orgId } = await org(c);
      const res = await api.getReposIssuesByNumber({ orgId, name, number });
      return c.print(res, () => {
        const i = res.issue;
        const lines = [
          `#${i.number} ${i.title} [${i.state ?? 'open'}]`,
          `by ${i.authorName ?? i.authorEmail ?? i.authorId}, ${when(i.createdAt)}${i.labels?.length ? `; labels ${i.labels.join(', ')}` : ''}`,
        ];
        if (i.body) lines.push('', i.body);
        for (const cm of res.comments)
          lines.push('', `${cm.authorName ?? cm.authorEmail ?? cm.authorId}, ${when(cm.createdAt)}:`, cm.body);
        return lines.join('\n');
      });
    },
  },
  commentCommand('issue', 'an issue', (api, input) => api.postReposIssuesComments(input)),
  {
    path: ['issue', 'close'],
    summary: 'close an issue (--reopen: open it again)',
    positionals: [{ name: 'number', required: true }],
    options: { repo: REPO, reopen: { type: 'boolean', help: 'open it again instead' } },
    examples: ['platform issue close 7', 'platform issue close 7 --reopen'],
    run: async (c) => {
      const name = await repoOf(c);
      const number = numberArg(c);
      const { api, orgId } = await org(c);
      const state = c.flag('reopen') ? 'open' : 'closed';
      const res = await api.patchReposIssuesByNumber({ orgId, name, number, body: { state } });
      return c.print(res, () => `#${number} is ${res.issue.state ?? state}.`);
    },
  },
];

export { repoNameOf };
