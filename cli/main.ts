import { run } from './run';

/** `npm run cli -- …` and the package's `platform` bin: the command line on this process's streams. */
const controller = new AbortController();
process.once('SIGINT', () => controller.abort());

let stdinText: Promise<string> | undefined;
const readStdin = () => {
  stdinText ??= (async () => {
    if (process.stdin.isTTY) return '';
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  })();
  return stdinText;
};

run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  // `npm run cli` runs in the package's folder; the folder it was typed in is INIT_CWD.
  cwd: (process.env.npm_lifecycle_event === 'cli' && process.env.INIT_CWD) || process.cwd(),
  // The spinner and transfer lines only when a person watches both streams (as gh).
  tty: process.stderr.isTTY === true && process.stdout.isTTY === true,
  // Not a terminal: no width, so tables print whole tab-separated cells.
  columns: process.stdout.isTTY ? process.stdout.columns || 80 : undefined,
  color: process.stdout.isTTY === true,
  stdin: readStdin,
  signal: controller.signal,
  pollMs: Number(process.env.PLATFORM_POLL_MS) || undefined,
  // Run as a script of its own (the package's bin.cjs, the link `npm link` made to it, whatever its
  // name, or a bundle of this file): git's credential helper calls that script back. Through tsx
  // (npm run cli, the script a .ts file), the default: this checkout's bin.cjs.
  self: process.argv[1] && !/\.[cm]?tsx?$/.test(process.argv[1]) ? [process.execPath, process.argv[1]] : undefined,
}).then((code) => {
  process.exitCode = code;
});
