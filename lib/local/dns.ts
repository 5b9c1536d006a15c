import type { AddressInfo } from 'node:net';
import DNS from 'dns2';
import { localAnswers } from '../../shared/ports/dns/local';

/**
 * The local authoritative DNS server (`npm start`: loopback, PORT+6, UDP): it answers from the zones
 * in the platform table (shared/ports/dns/local.ts), written by the `local` DNS provider or
 * `npm run local -- dns set`, and `*.localhost` as loopback (the edge). The platform's lookups go
 * here (`DNS_SERVERS`); `dig @127.0.0.1 -p <port> <name> TXT` shows what it sees.
 */
export interface DnsServer {
  port: number;
  close(): Promise<void>;
}

const { Packet } = DNS;
const TYPES = { A: Packet.TYPE.A, CNAME: Packet.TYPE.CNAME, TXT: Packet.TYPE.TXT } as const;
const NAMES = new Map<number, keyof typeof TYPES>(Object.entries(TYPES).map(([k, v]) => [v, k as keyof typeof TYPES]));
/** RFC 1035's response code of a failure of the server's own (the table unreachable). */
const SERVFAIL = 2;

export async function startDnsServer(options: { port: number; host?: string }): Promise<DnsServer> {
  const server = DNS.createUDPServer({ type: 'udp4' });
  server.on('request', (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    const [question] = request.questions;
    const type = question ? NAMES.get(question.type) : undefined;
    const answer = async () => {
      if (!question || !type) return;
      const answers = await localAnswers(question.name, type);
      for (const a of answers) {
        const data =
          a.type === 'A' ? { address: a.value } : a.type === 'CNAME' ? { domain: a.value } : { data: a.value };
        // The asked name as it was asked (resolvers may mix its case, RFC 1035 names compare without it).
        const name = a.name === question.name.toLowerCase().replace(/\.$/, '') ? question.name : a.name;
        const base = { name, type: TYPES[a.type], class: Packet.CLASS.IN, ttl: 60 };
        // Plain records: the packet's encoder reads their fields (dns2's type asks for a Resource).
        response.answers.push({ ...base, ...data } as unknown as (typeof response.answers)[number]);
      }
    };
    answer()
      .catch(() => {
        response.header.rcode = SERVFAIL;
      })
      .then(() => send(response))
      .catch(() => undefined);
  });
  server.on('requestError', () => undefined);
  await server.listen(options.port, options.host ?? '127.0.0.1');
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
