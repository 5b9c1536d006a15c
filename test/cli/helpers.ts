import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Io } from '../../cli/context';
import { run } from '../../cli/run';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Who the commits of a test are by (git refuses to commit without a name). */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'CLI test',
  GIT_AUTHOR_EMAIL: 'cli@example.com',
  GIT_COMMITTER_NAME: 'CLI test',
  GIT_COMMITTER_EMAIL: 'cli@example.com',
};

/** The package's `platform` command (the bundled command line, made again when a source changed). */
export const BIN = join(__dirname, '..', '..', 'cli', 'bin.cjs');

/**
 * The `platform` command for a test: run as a child process (the bundled program under `node`,
 * stdout and stderr captured, stdin given or empty) with its config under a folder of its own
 * (XDG_CONFIG_HOME) and a fixed terminal width (COLUMNS). `{ tty: true }` runs it in this process
 * instead, as on a terminal (the animated progress lines), since a child's stderr is a pipe.
 */
export class Cli {
  readonly configHome = mkdtempSync(join(tmpdir(), 'platform-cli-config-'));
  readonly env: Record<string, string | undefined> = { XDG_CONFIG_HOME: this.configHome, HOME: this.configHome };

  /**
   * Set: stdout is a terminal this wide (the command runs in this process, tables sized to it);
   * unset: stdout is a pipe (whole tab-separated cells).
   */
  columns: number | undefined;
  /** With `columns`: the terminal shows colour. */
  color = false;

  constructor(public cwd: string = mkdtempSync(join(tmpdir(), 'platform-cli-cwd-'))) {}

  /** `onStderr` is told the stderr so far at each chunk (a test waits for a line, not a fixed time). */
  async run(
    argv: string[],
    options: { stdin?: string; tty?: boolean; onStderr?: (stderr: string) => void } = {},
  ): Promise<CliResult> {
    if (options.tty || this.columns !== undefined) return this.inProcess(argv, options.stdin, options.tty === true);
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', PLATFORM_POLL_MS: '50' };
    for (const [name, value] of Object.entries(this.env)) if (value !== undefined) env[name] = value;
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...argv], { cwd: this.cwd, env, stdio: 'pipe' });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => {
        err.push(d);
        options.onStderr?.(Buffer.concat(err).toString('utf8'));
      });
      child.on('error', reject);
      child.on('close', (code, signal) =>
        resolve({
          code: code ?? (signal ? 128 : 1),
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(err).toString('utf8'),
        }),
      );
      // A command that never reads stdin may exit before it is written.
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.stdin ?? '');
    });
  }

  /** The command line in this process, on captured streams. */
  async inProcess(argv: string[], stdin?: string, tty = false): Promise<CliResult> {
    let stdout = '';
    let stderr = '';
    const io: Io = {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      env: this.env,
      cwd: this.cwd,
      tty,
      columns: this.columns,
      color: this.columns !== undefined && this.color,
      stdin: async () => stdin ?? '',
      pollMs: 50,
    };
    const code = await run(argv, io);
    return { code, stdout, stderr };
  }
}
