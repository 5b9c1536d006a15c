import { connect, createServer, isIP, type Socket } from 'node:net';

/**
 * The import's clone goes through this relay: a SOCKS5 proxy on loopback (git's
 * `http.proxy=socks5h://…`, so the source's host name reaches the relay unresolved, and TLS runs
 * from git to the source untouched). It takes one destination only, the source's host and port,
 * connects to the addresses the job checked (never a name it resolves itself) and counts every
 * byte the source sends (`onBytes`), so the job's meter (./limits.ts) sees the whole transfer:
 * refs, packs, an endless answer git would keep in memory. `close` ends every connection at once.
 */
export interface RelayTarget {
  /** The URL's host name, without brackets. */
  host: string;
  port: number;
  /** The addresses checked for `host`, tried in order. */
  addresses: string[];
}

export interface Relay {
  /** `socks5h://127.0.0.1:<port>`, for git's `http.proxy`. */
  url: string;
  close(): Promise<void>;
}

const VERSION = 0x05;
const NO_AUTH = 0x00;
const NO_METHOD = 0xff;
const CMD_CONNECT = 0x01;
const REPLY = { ok: 0x00, notAllowed: 0x02, refused: 0x05, badCommand: 0x07 } as const;

/** A host as compared: IPv6 literals in their one written form, names in lower case. */
function sameHost(a: string, b: string): boolean {
  const norm = (h: string) => (isIP(h) === 6 ? new URL(`http://[${h}]`).hostname.slice(1, -1) : h.toLowerCase());
  return norm(a) === norm(b);
}

/** The CONNECT request at the start of `buf`: its host and port and its length; undefined until complete. */
function parseRequest(buf: Buffer): { cmd: number; host: string; port: number; length: number } | undefined {
  if (buf.length < 5) return undefined;
  const cmd = buf[1] as number;
  const atyp = buf[3] as number;
  let host: string;
  let at: number;
  if (atyp === 0x01) {
    if (buf.length < 10) return undefined;
    host = [...buf.subarray(4, 8)].join('.');
    at = 8;
  } else if (atyp === 0x03) {
    const len = buf[4] as number;
    if (buf.length < 5 + len + 2) return undefined;
    host = buf.subarray(5, 5 + len).toString('latin1');
    at = 5 + len;
  } else if (atyp === 0x04) {
    if (buf.length < 22) return undefined;
    const groups: string[] = [];
    for (let i = 0; i < 8; i++) groups.push(buf.readUInt16BE(4 + i * 2).toString(16));
    host = groups.join(':');
    at = 20;
  } else {
    return { cmd: -1, host: '', port: 0, length: buf.length };
  }
  return { cmd, host, port: buf.readUInt16BE(at), length: at + 2 };
}

const reply = (code: number) => Buffer.from([VERSION, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0]);

/** Connects to the first of `addresses` that answers. */
function connectFirst(addresses: string[], port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const next = (i: number, last?: Error) => {
      const address = addresses[i];
      if (address === undefined) return reject(last ?? new Error('no address'));
      const socket = connect({ host: address, port });
      socket.once('connect', () => {
        socket.removeAllListeners('error');
        resolve(socket);
      });
      socket.once('error', (err) => {
        socket.destroy();
        next(i + 1, err);
      });
    };
    next(0);
  });
}

export async function startRelay(target: RelayTarget, onBytes: (n: number) => void): Promise<Relay> {
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    return s;
  };
  const server = createServer((client) => {
    track(client);
    client.on('error', () => client.destroy());
    let buf = Buffer.alloc(0);
    let stage: 'greeting' | 'request' | 'connecting' = 'greeting';
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (stage === 'greeting') {
        if (buf.length < 2 || buf.length < 2 + (buf[1] as number)) return;
        const methods = buf.subarray(2, 2 + (buf[1] as number));
        if (buf[0] !== VERSION || !methods.includes(NO_AUTH)) {
          client.end(Buffer.from([VERSION, NO_METHOD]));
          return;
        }
        client.write(Buffer.from([VERSION, NO_AUTH]));
        buf = buf.subarray(2 + (buf[1] as number));
        stage = 'request';
      }
      if (stage !== 'request') return;
      const req = parseRequest(buf);
      if (!req) return;
      stage = 'connecting';
      client.off('data', onData);
      client.pause();
      if (buf[0] !== VERSION || req.cmd !== CMD_CONNECT) return void client.end(reply(REPLY.badCommand));
      if (!sameHost(req.host, target.host) || req.port !== target.port) {
        return void client.end(reply(REPLY.notAllowed));
      }
      const early = buf.subarray(req.length);
      connectFirst(target.addresses, target.port).then(
        (upstream) => {
          track(upstream);
          if (client.destroyed) return void upstream.destroy();
          const end = () => {
            client.destroy();
            upstream.destroy();
          };
          upstream.on('error', end);
          client.on('error', end);
          upstream.on('close', end);
          client.on('close', end);
          upstream.on('data', (d: Buffer) => {
            onBytes(d.length);
            if (!client.destroyed && !client.write(d)) upstream.pause();
          });
          client.on('drain', () => upstream.resume());
          client.write(reply(REPLY.ok));
          if (early.length > 0) upstream.write(early);
          client.pipe(upstream);
          client.resume();
        },
        () => client.end(reply(REPLY.refused)),
      );
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `socks5h://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
