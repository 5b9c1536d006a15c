import type { RepoImport } from '../client';
import { sleep } from './context';
import { Progress } from './progress';
import type { CommandSpec } from './spec';

const FINAL = ['succeeded', 'failed', 'cancelled'];

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** What the progress line says of an import. */
export function describeImport(i: RepoImport): string {
  const { phase, objects, bytes } = i.progress;
  const what = { queued: 'queued', cloning: 'fetching', lfs: 'fetching LFS objects', pushing: 'writing', done: 'done' }[
    phase
  ];
  return `${what}: ${objects} objects, ${mb(bytes)}`;
}

/**
 * `platform repo import <git-url> [name]`: starts the import and follows it to its final state (a
 * progress line on a terminal, each phase once elsewhere); `--no-wait` prints the import and returns.
 */
export const repoImportCommand: CommandSpec = {
  path: ['repo', 'import'],
  summary: 'bring an existing repository in by its git URL: every branch and tag, and its LFS objects',
  details:
    'The import runs on the platform where builds run (not on this machine) and may take minutes for a ' +
    'large repository. A private source takes a user name and password (a token) with --username and ' +
    '--password, or in the URL; they reach the source only and are never shown.',
  positionals: [
    { name: 'git-url', required: true, help: 'https URL of the source repository' },
    { name: 'name', help: "the new repository's name (default: from the URL)" },
  ],
  options: {
    description: { type: 'string', value: 'TEXT', help: 'what it holds' },
    username: { type: 'string', value: 'USER', help: 'user name for a private source' },
    password: { type: 'string', value: 'TOKEN', help: 'password or token for a private source' },
    'no-wait': { type: 'boolean', help: 'start it and return at once (the import goes on)' },
  },
  examples: [
    'platform repo import https://github.com/expressjs/express.git',
    'platform repo import https://git.example.com/team/app.git app --username me --password "$TOKEN"',
  ],
  run: async (c) => {
    const s = await c.session();
    const orgId = s.config.orgId;
    const started = await s.api.postReposImports({
      orgId,
      body: {
        url: c.args[0] as string,
        name: c.args[1],
        description: c.str('description'),
        username: c.str('username'),
        password: c.str('password'),
      },
    });
    let current = started.import;
    if (c.flag('no-wait')) {
      return c.print(started, () => `Import ${current.importId} of ${current.name} started (${current.state}).`);
    }
    if (!c.json) c.io.stderr(`Importing ${current.url} into ${current.name} (${current.importId})\n`);
    const progress = new Progress(c.io.stderr, c.io.tty && !c.json);
    try {
      while (!FINAL.includes(current.state)) {
        if (!c.json) progress.setStatus(describeImport(current));
        await sleep(c.io.pollMs ?? 1000, c.io.signal);
        current = (await s.api.getReposImportsByImportId({ orgId, importId: current.importId })).import;
      }
    } finally {
      progress.stop();
    }
    const code = current.state === 'succeeded' ? 0 : 1;
    c.print({ import: current }, () =>
      current.state === 'succeeded'
        ? `Imported ${current.name} in ${progress.seconds()}: ${current.progress.objects} objects, ${mb(current.progress.bytes)}.`
        : `Import ${current.state}: ${current.message ?? 'no reason given'}`,
    );
    return code;
  },
};
