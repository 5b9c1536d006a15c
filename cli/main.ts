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
  tty: process.stderr.isTTY === true,
  columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  stdin: readStdin,
  signal: controller.signal,
}).then((code) => {
  process.exitCode = code;
});
