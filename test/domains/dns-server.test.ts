import DNS from 'dns2';
import { type DnsServer, startDnsServer } from '../../lib/local/dns';
import { removeLocalRecord, setLocalRecord } from '../../shared/ports/dns/local';
import { unique } from './helpers';

/**
 * The local authoritative DNS server (lib/local/dns.ts) as any resolver asks it, over UDP: answers
 * from the zones in the platform table, `*.localhost` as loopback, an A question following a CNAME
 * and flattening an ALIAS (an apex), authoritative answers, nothing for an unknown name.
 */
let server: DnsServer;
let ask: ReturnType<typeof DNS.UDPClient>;
beforeAll(async () => {
  server = await startDnsServer({ port: 0 });
  ask = DNS.UDPClient({ dns: '127.0.0.1', port: server.port, timeout: 3000 });
});
afterAll(() => server.close());

const answers = async (name: string, type: 'A' | 'CNAME' | 'TXT') => {
  const res = await ask(name, type);
  expect(res.header.aa).toBe(1);
  return res.answers.map((a) => {
    const r = a as unknown as {
      name: string;
      type: number;
      address?: string;
      domain?: string;
      data?: string[] | string;
    };
    return [r.name, r.address ?? r.domain ?? (Array.isArray(r.data) ? r.data.join('') : r.data)];
  });
};

it('answers *.localhost as loopback', async () => {
  expect(await answers('cname.localhost', 'A')).toEqual([['cname.localhost', '127.0.0.1']]);
});

it('answers records of the table: A through a CNAME, an ALIAS flattened, TXT', async () => {
  const zone = `${unique('dns')}.test`;
  await setLocalRecord(zone, { name: `www.${zone}`, type: 'CNAME', value: 'cname.localhost' });
  await setLocalRecord(zone, { name: zone, type: 'ALIAS', value: 'cname.localhost' });
  await setLocalRecord(zone, { name: `_platform-verify.www.${zone}`, type: 'TXT', value: 'platform-verify=abc' });
  await setLocalRecord(zone, { name: `api.${zone}`, type: 'A', value: '192.0.2.7' });

  expect(await answers(`www.${zone}`, 'A')).toEqual([
    [`www.${zone}`, 'cname.localhost'],
    ['cname.localhost', '127.0.0.1'],
  ]);
  expect(await answers(`www.${zone}`, 'CNAME')).toEqual([[`www.${zone}`, 'cname.localhost']]);
  expect(await answers(zone, 'A')).toEqual([[zone, '127.0.0.1']]);
  expect(await answers(`_platform-verify.www.${zone}`, 'TXT')).toEqual([
    [`_platform-verify.www.${zone}`, 'platform-verify=abc'],
  ]);
  expect(await answers(`API.${zone}`, 'A')).toEqual([[`API.${zone}`, '192.0.2.7']]);
  expect(await answers(`nothing.${zone}`, 'A')).toEqual([]);

  await removeLocalRecord({ name: `api.${zone}`, type: 'A', value: '192.0.2.7' });
  expect(await answers(`api.${zone}`, 'A')).toEqual([]);
});
