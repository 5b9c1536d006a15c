import { execFile } from 'node:child_process';

/** What git printed, and how it ended. */
export interface GitRun {
  code: number;
  out: string;
}

/**
 * The git CLI as the repository tests drive it: in `home`, never asking anything (no prompt),
 * with no configuration but its own, committing as Grace (`env` adds variables, e.g. commit dates).
 * `run` answers how it went; `ok` throws with git's own words when it failed.
 */
export function gitCli(home: () => string) {
  const run = (cwd: string, args: string[], env: Record<string, string> = {}): Promise<GitRun> =>
    new Promise((resolve) => {
      execFile(
        'git',
        args,
        {
          cwd,
          env: {
            PATH: process.env.PATH,
            HOME: home(),
            GIT_CONFIG_NOSYSTEM: '1',
            GIT_TERMINAL_PROMPT: '0',
            GIT_AUTHOR_NAME: 'Grace',
            GIT_AUTHOR_EMAIL: 'grace@example.com',
            GIT_COMMITTER_NAME: 'Grace',
            GIT_COMMITTER_EMAIL: 'grace@example.com',
            ...env,
          },
          maxBuffer: 64 * 1024 * 1024,
        },
        (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
      );
    });
  const ok = async (cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> => {
    const r = await run(cwd, args, env);
    if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.out}`);
    return r.out;
  };
  return { run, ok };
}
