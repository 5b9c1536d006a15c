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

/**
 * The command line in this process, on captured streams, with its config under a folder of its
 * own (XDG_CONFIG_HOME): what `npm run cli -- …` does, without spawning.
 */
export class Cli {
  readonly configHome = mkdtempSync(join(tmpdir(), 'platform-cli-config-'));
  readonly env: Record<string, string | undefined> = { XDG_CONFIG_HOME: this.configHome, HOME: this.configHome };

  /** The terminal's width the output is sized to (unset: 80, as when stdout is not a terminal). */
  columns: number | undefined;

  constructor(public cwd: string = mkdtempSync(join(tmpdir(), 'platform-cli-cwd-'))) {}

  async run(argv: string[], options: { stdin?: string; tty?: boolean } = {}): Promise<CliResult> {
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
      tty: options.tty ?? false,
      columns: this.columns,
      stdin: async () => options.stdin ?? '',
      pollMs: 50,
    };
    const code = await run(argv, io);
    return { code, stdout, stderr };
  }
}
