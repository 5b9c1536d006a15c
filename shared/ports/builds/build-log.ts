import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { BuildLogLine } from '../../domains/deployments/record-schemas';
import { localPaths } from '../../kernel/tenancy/paths';

/** One line of a build's log (the deployments' record: `{ t, m }`). */
export type { BuildLogLine };

/** A line longer than this is cut (minified bundles print whole files). */
const MAX_LINE = 4000;
/** A build log stops growing here; the last line says so. */
const MAX_LOG_BYTES = 10 * 1024 * 1024;

/**
 * The local build log of a deployment: one JSON line `{t, m}` per output line, appended while the
 * build runs and read from a byte offset (the page cursor), so a reader never sees half a line.
 */
export class BuildLogWriter {
  private bytes = 0;
  private full = false;
  private closed?: Promise<void>;
  private constructor(private readonly stream: WriteStream) {}

  static async open(deploymentId: string): Promise<BuildLogWriter> {
    const file = localPaths.buildLog(deploymentId);
    await mkdir(dirname(file), { recursive: true });
    const size = await stat(file).then(
      (s) => s.size,
      () => 0,
    );
    const writer = new BuildLogWriter(createWriteStream(file, { flags: 'a', mode: 0o600 }));
    writer.bytes = size;
    return writer;
  }

  line(message: string): void {
    if (this.full || this.closed) return;
    const m = message.length > MAX_LINE ? `${message.slice(0, MAX_LINE)}…` : message;
    let text = `${JSON.stringify({ t: Date.now(), m })}\n`;
    if (this.bytes + text.length > MAX_LOG_BYTES) {
      this.full = true;
      text = `${JSON.stringify({ t: Date.now(), m: 'The build log reached 10 MB; later output is not kept.' })}\n`;
    }
    this.bytes += text.length;
    this.stream.write(text);
  }

  /**
   * The build's reason for failing, `Error: <message>`: its last line, written even past the
   * size limit, since the worker reads the deployment's error from it (`lastErrorLine`).
   */
  error(message: string): void {
    if (this.closed) return;
    const m = `Error: ${message}`.slice(0, MAX_LINE);
    this.stream.write(`${JSON.stringify({ t: Date.now(), m })}\n`);
  }

  /** Flushes and closes (idempotent); later lines are dropped. */
  close(): Promise<void> {
    this.closed ??= new Promise((resolve) => this.stream.end(() => resolve()));
    return this.closed;
  }
}

/**
 * Complete lines from `offset` on, up to `maxLines`; `next` is the offset after the last line
 * returned (equal to `offset` when nothing new was written).
 */
export async function readBuildLog(
  deploymentId: string,
  offset: number,
  maxLines = 1000,
): Promise<{ lines: BuildLogLine[]; next: number }> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(localPaths.buildLog(deploymentId), 'r');
  } catch {
    return { lines: [], next: offset };
  }
  try {
    const lines: BuildLogLine[] = [];
    let next = offset;
    const chunk = Buffer.alloc(256 * 1024);
    let carry = Buffer.alloc(0);
    let position = offset;
    while (lines.length < maxLines) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let data = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      let nl = data.indexOf(10);
      while (nl >= 0 && lines.length < maxLines) {
        const raw = data.subarray(0, nl).toString('utf8');
        next += nl + 1;
        try {
          lines.push(JSON.parse(raw) as BuildLogLine);
        } catch {
          lines.push({ t: 0, m: raw });
        }
        data = data.subarray(nl + 1);
        nl = data.indexOf(10);
      }
      carry = Buffer.from(data);
    }
    return { lines, next };
  } finally {
    await handle.close();
  }
}

/** The tail a failure's reason is looked for in: its last lines, well past one line's limit. */
const TAIL_BYTES = 64 * 1024;

/** The message of the log's last `Error: …` line (the build's reason for failing), if any. */
export async function lastErrorLine(deploymentId: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(localPaths.buildLog(deploymentId), 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = await handle.stat();
    const from = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - from);
    await handle.read(buffer, 0, buffer.length, from);
    const lines = buffer.toString('utf8').split('\n').reverse();
    for (const raw of lines) {
      let line: BuildLogLine;
      try {
        line = JSON.parse(raw) as BuildLogLine;
      } catch {
        continue;
      }
      if (typeof line.m === 'string' && line.m.startsWith('Error: ')) return line.m.slice('Error: '.length);
    }
    return undefined;
  } finally {
    await handle.close();
  }
}
