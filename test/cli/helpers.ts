import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Io } from '../../cli/context';
import { run } from '../../cli/run';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

let bundling: Promise<string> | undefined;

/**
 * Starts the bundle with V8's code cache (kept beside it, made by the first command that runs):
 * ~25 ms less a command than compiling the 0.5 MB again each time.
 */
const LOADER = `const fs = require('node:fs');
const vm = require('node:vm');
const Module = require('node:module');
const file = require('node:path').join(__dirname, 'platform.cjs');
const cacheFile = file + '.v8cache';
let cachedData;
try { cachedData = fs.readFileSync(cacheFile); } catch {}
const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData });
const m = new Module(file, module);
m.filename = file;
script.runInThisContext().call(m.exports, m.exports, (id) => m.require(id), m, file, __dirname);
if (!cachedData || script.cachedDataRejected) {
  process.once('exit', () => {
    try {
      fs.writeFileSync(cacheFile + process.pid, script.createCachedData());
      fs.renameSync(cacheFile + process.pid, cacheFile);
    } catch {}
  });
}
`;

/**
 * The command line as one script (`cli/main.ts` and what it imports, bundled by esbuild), made
 * once per test run (the run's data folder) and shared by the test files: `node` starts it in
 * ~0.1 s, where tsx would compile the sources again for every command. Answers the path of its
 * loader (what a test runs).
 */
export function cliBundle(): Promise<string> {
  bundling ??= (async () => {
    const dir = join(process.env.TEST_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'platform-cli-')), 'cli-bundle');
    const loader = join(dir, 'platform-loader.cjs');
    if (existsSync(loader)) return loader;
    mkdirSync(dir, { recursive: true });
    // Another test file may bundle at the same time: each writes its own files, renamed into place
    // (the bundle first, then the loader that needs it).
    const own = join(dir, `platform-${process.pid}.cjs`);
    await build({
      entryPoints: [join(__dirname, '..', '..', 'cli', 'main.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: own,
      logLevel: 'error',
    });
    renameSync(own, join(dir, 'platform.cjs'));
    writeFileSync(`${loader}.${process.pid}`, LOADER);
    renameSync(`${loader}.${process.pid}`, loader);
    return loader;
  })();
  return bundling;
}

/**
 * The `platform` command for a test: run as a child process (the bundled program under `node`,
 * stdout and stderr captured, stdin given or empty) with its config under a folder of its own
 * (XDG_CONFIG_HOME) and a fixed terminal width (COLUMNS). `{ tty: true }` runs it in this process
 * instead, as on a terminal (the animated progress lines), since a child's stderr is a pipe.
 */
export class Cli {
  readonly configHome = mkdtempSync(join(tmpdir(), 'platform-cli-config-'));
  readonly env: Record<string, string | undefined> = { XDG_CONFIG_HOME: this.configHome, HOME: this.configHome };

  /** The terminal's width the output is sized to (unset: 80, as when stdout is not a terminal). */
  columns: number | undefined;

  constructor(public cwd: string = mkdtempSync(join(tmpdir(), 'platform-cli-cwd-'))) {}

  async run(argv: string[], options: { stdin?: string; tty?: boolean } = {}): Promise<CliResult> {
    if (options.tty) return this.inProcess(argv, options.stdin, true);
    const bundle = await cliBundle();
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', PLATFORM_POLL_MS: '50' };
    for (const [name, value] of Object.entries(this.env)) if (value !== undefined) env[name] = value;
    if (this.columns !== undefined) env.COLUMNS = String(this.columns);
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bundle, ...argv], { cwd: this.cwd, env, stdio: 'pipe' });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
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
      stdin: async () => stdin ?? '',
      pollMs: 50,
    };
    const code = await run(argv, io);
    return { code, stdout, stderr };
  }
}
