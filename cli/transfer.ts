import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CliError } from './context';
import { bytes, duration } from './output';

/**
 * Copies through presigned links: a file PUT with its exact Content-Type and Content-Length
 * (streamed, never read whole), a GET written to a file as it comes. On a terminal, one line on
 * stderr redrawn at most 10 times a second: bytes so far, rate, time left; elsewhere nothing
 * until the end.
 */
export class TransferMeter {
  private done = 0;
  private readonly started = Date.now();
  private last = 0;
  private shown = false;

  constructor(
    private readonly label: string,
    private readonly total: number | undefined,
    private readonly write: (text: string) => void,
    private readonly tty: boolean,
  ) {}

  add(n: number): void {
    this.done += n;
    const now = Date.now();
    if (!this.tty || now - this.last < 100) return;
    this.last = now;
    this.write(`\r\x1b[K${this.line()}`);
    this.shown = true;
  }

  private line(): string {
    const seconds = Math.max((Date.now() - this.started) / 1000, 0.001);
    const rate = this.done / seconds;
    const of = this.total === undefined ? '' : ` of ${bytes(this.total)}`;
    const left = this.total !== undefined && rate > 0 ? `, ${duration((this.total - this.done) / rate)} left` : '';
    return `${this.label}: ${bytes(this.done)}${of} at ${bytes(Math.round(rate))}/s${left}`;
  }

  /** Clears the line; answers the time taken (s). */
  end(): number {
    if (this.shown) this.write('\r\x1b[K');
    return (Date.now() - this.started) / 1000;
  }
}

export async function uploadFile(url: string, file: string, contentType: string, meter: TransferMeter): Promise<void> {
  const size = statSync(file).size;
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  await new Promise<void>((resolve, reject) => {
    const req = send(
      target,
      { method: 'PUT', headers: { 'content-type': contentType, 'content-length': String(size) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if ((res.statusCode ?? 0) < 300) resolve();
          else reject(new CliError(`The upload failed: the storage answered ${res.statusCode}.`));
        });
      },
    );
    req.on('error', (err) => reject(new CliError(`The upload failed: ${err.message}`)));
    const stream = createReadStream(file);
    stream.on('data', (chunk) => meter.add(chunk.length));
    stream.on('error', reject);
    stream.pipe(req);
  });
}

export async function downloadFile(url: string, file: string, meter: TransferMeter, fetcher = fetch): Promise<number> {
  let res: Response;
  try {
    res = await fetcher(url);
  } catch (err) {
    throw new CliError(`The download failed: ${(err as { cause?: Error }).cause?.message ?? (err as Error).message}`);
  }
  if (!res.ok || !res.body) throw new CliError(`The download failed: the storage answered ${res.status}.`);
  let written = 0;
  const out = createWriteStream(file);
  const counter = new Writable({
    write(chunk: Buffer, _enc, callback) {
      written += chunk.length;
      meter.add(chunk.length);
      if (out.write(chunk)) callback();
      else out.once('drain', () => callback());
    },
    final(callback) {
      out.end(callback);
    },
  });
  await pipeline(res.body as unknown as NodeJS.ReadableStream, counter);
  return written;
}

const TYPES: Record<string, string> = {
  html: 'text/html',
  txt: 'text/plain',
  css: 'text/css',
  js: 'text/javascript',
  json: 'application/json',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  csv: 'text/csv',
  ics: 'text/calendar',
  md: 'text/markdown',
};
/** A file's Content-Type from its extension (else application/octet-stream). */
export const typeOf = (file: string) => TYPES[file.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
