import { mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { buildSync } from 'esbuild';

/**
 * lib/bundle.ts for CDK, whose bundling hook is synchronous, while esbuild runs plugins only in its
 * asynchronous API. The bundler (lib/bundle.ts and its plugins, compiled once per process to one
 * CommonJS file) runs in a worker thread, and the caller waits for it with `Atomics.wait`. One
 * worker serves every function of a synth by one esbuild context (lib/bundle.ts functionBundler),
 * which parses the files the functions share once.
 */
interface Bundler {
  port: MessagePort;
  signal: Int32Array;
}

let bundler: Bundler | undefined;

const WORKER = `
const { workerData } = require('node:worker_threads');
const { functionBundler } = require(workerData.file);
const { port, signal } = workerData;
const bundlers = new Map();
port.on('message', async (job) => {
  let error;
  try {
    let bundler = bundlers.get(job.absWorkingDir);
    if (!bundler) {
      bundler = functionBundler({ absWorkingDir: job.absWorkingDir });
      bundlers.set(job.absWorkingDir, bundler);
    }
    await (await bundler).bundle(job);
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  port.postMessage({ error });
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
`;

function start(projectRoot: string): Bundler {
  // Inside the project, so that the compiled file finds esbuild in its node_modules.
  const dir = path.join(projectRoot, 'node_modules', '.cache', 'platform-bundle');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `bundle-${process.pid}.cjs`);
  process.once('exit', () => rmSync(file, { force: true }));
  buildSync({
    entryPoints: [path.join(__dirname, '..', 'bundle.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: file,
    external: ['esbuild'],
    logLevel: 'error',
  });
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER, { eval: true, workerData: { file, signal, port: port2 }, transferList: [port2] });
  // Neither keeps a finished synth alive.
  worker.unref();
  port1.unref();
  return { port: port1, signal };
}

/** One function bundled as lib/bundle.ts bundles it, before this returns; throws with esbuild's errors. */
export function bundleFunctionSync(o: { entry: string; outdir: string; absWorkingDir: string }): void {
  bundler ??= start(o.absWorkingDir);
  Atomics.store(bundler.signal, 0, 0);
  bundler.port.postMessage(o);
  if (Atomics.wait(bundler.signal, 0, 0, 5 * 60_000) === 'timed-out') {
    throw new Error(`Bundling ${o.entry} took over 5 minutes`);
  }
  const answer = receiveMessageOnPort(bundler.port)?.message as { error?: string } | undefined;
  if (!answer) throw new Error(`Bundling ${o.entry}: no answer from the bundler`);
  if (answer.error) throw new Error(`Bundling ${o.entry} failed: ${answer.error}`);
}
