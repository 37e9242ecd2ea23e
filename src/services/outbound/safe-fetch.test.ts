import dns from 'node:dns';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpReceiver, type HttpReceiver, type Reply } from '../../../test/helpers/http-receiver.js';
import { OutboundError } from './outbound-error.js';
import { SafeFetch } from './safe-fetch.js';

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<OutboundError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    expect(err).toBeInstanceOf(OutboundError);
    return err as OutboundError;
  }
  throw new Error('expected an OutboundError');
}

describe('SafeFetch', () => {
  let rx: HttpReceiver;
  const closed = new SafeFetch({ allow: [] });
  let open: SafeFetch;

  beforeAll(async () => {
    rx = await startHttpReceiver((req): Reply => {
      if (req.url === '/big') return { body: Buffer.alloc(5000, 1) };
      if (req.url.startsWith('/redirect?to=')) return { status: 302, headers: { location: decodeURIComponent(req.url.slice('/redirect?to='.length)) } };
      if (req.url === '/loop') return { status: 307, headers: { location: '/loop' } };
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: req.method, body: req.body.toString() }) };
    });
    open = new SafeFetch({ allow: ['127.0.0.1'] });
  });
  afterAll(async () => rx.close());

  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.5.6.7:8080/x', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://10.1.2.3/', 'private network'],
    ['http://172.16.0.1/', 'private network'],
    ['http://192.168.1.1/', 'private network'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['http://169.254.1.1/', 'link-local'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://[::1]/', 'loopback'],
    ['http://[::]/', 'unspecified'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:10.0.0.1]/', 'private network'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[fd12:3456::1]/', 'unique local'],
    ['http://[fd00:ec2::254]/', 'cloud metadata'],
    ['http://[64:ff9b::7f00:1]/', 'special-purpose'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'internal host name'],
    ['http://localhost:8080/', 'internal host name'],
  ])('refuses %s before any connection (%s)', async (url, why) => {
    const err = await refusal(() => closed.checkUrl(url));
    expect(err.reason).toBe('forbidden_address');
    expect(err.message).toContain(why);
    expect((await refusal(closed.fetch(url))).reason).toBe('forbidden_address');
  });

  it.each(['ftp://example.com/x', 'file:///etc/passwd', 'gopher://example.com/', 'not a url', 'javascript:alert(1)'])('refuses %s as an invalid URL', async (url) => {
    const err = await refusal(() => closed.checkUrl(url));
    expect(err.reason).toBe('invalid_url');
  });

  it('accepts public addresses and host names in the static check', () => {
    expect(closed.checkUrl('https://93.184.215.14/hook').hostname).toBe('93.184.215.14');
    expect(closed.checkUrl('https://[2606:4700::1111]/').hostname).toBe('[2606:4700::1111]');
    expect(closed.checkUrl('https://hooks.example.com/x').hostname).toBe('hooks.example.com');
  });

  it('refuses a host name that resolves to loopback (localhost through real DNS, any name through the resolver)', async () => {
    const viaDns = new SafeFetch({ allow: [] });
    // checkUrl refuses "localhost" by name; fetch must also refuse it by address.
    expect((await refusal(viaDns.fetch(`http://localhost:${rx.port}/`))).reason).toBe('forbidden_address');
    // The machine's own name usually resolves to loopback through /etc/hosts: refused by address.
    const own = await dns.promises.lookup(os.hostname()).catch(() => undefined);
    if (own && own.address.startsWith('127.')) {
      const err = await refusal(viaDns.fetch(`http://${os.hostname()}:${rx.port}/`));
      expect(err.message).toContain(`(${own.address}) is a loopback address`);
    }
    const sneaky = new SafeFetch({ allow: [], resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const err = await refusal(sneaky.fetch(`http://innocent.example:${rx.port}/`));
    expect(err.reason).toBe('forbidden_address');
    expect(err.message).toContain('innocent.example (127.0.0.1) is a loopback address');
  });

  it('refuses a name with one private record among public ones', async () => {
    const mixed = new SafeFetch({ allow: [], resolve: async () => [{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.5', family: 4 }] });
    expect((await refusal(mixed.fetch('http://mixed.example/'))).message).toContain('10.0.0.5');
  });

  it('connects to the address it checked, never to a second DNS answer (rebinding)', async () => {
    let calls = 0;
    // The first answer is the allowed receiver; any later lookup would point at the metadata address.
    const rebinding = new SafeFetch({
      allow: ['127.0.0.1'],
      resolve: async () => (calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '169.254.169.254', family: 4 }]),
    });
    const res = await rebinding.fetch(`http://rebind.test:${rx.port}/ok`);
    expect(res.status).toBe(200);
    expect(calls).toBe(1);
    // "rebind.test" does not exist in DNS: had undici resolved it itself the request would fail.
    expect(rx.requests.at(-1)?.headers.host).toBe(`rebind.test:${rx.port}`);
  });

  it('reaches allow-listed addresses, CIDR ranges and host names', async () => {
    const res = await open.fetch(`${rx.url}/hello`, { method: 'POST', body: 'hi', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ method: 'POST', body: 'hi' });
    const byCidr = new SafeFetch({ allow: ['127.0.0.0/8'] });
    expect((await byCidr.fetch(`${rx.url}/`)).status).toBe(200);
    const byName = new SafeFetch({ allow: ['hooks.internal'], resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    expect((await byName.fetch(`http://hooks.internal:${rx.port}/`)).status).toBe(200);
    const byWildcard = new SafeFetch({ allow: ['*.corp.internal'], resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    expect((await byWildcard.fetch(`http://a.corp.internal:${rx.port}/`)).status).toBe(200);
    // An allowed range does not open the metadata address inside it.
    const wide = new SafeFetch({ allow: ['169.254.0.0/16'] });
    expect((await refusal(() => wide.checkUrl('http://169.254.169.254/'))).message).toContain('cloud metadata');
  });

  it('rejects malformed allow-list entries at construction', () => {
    expect(() => new SafeFetch({ allow: ['10.0.0.0/33'] })).toThrow(/OUTBOUND_ALLOW entry "10.0.0.0\/33"/);
    expect(() => new SafeFetch({ allow: ['http://x'] })).toThrow(/OUTBOUND_ALLOW/);
  });

  it('follows redirects between allowed hosts, switching a POST to GET on 302', async () => {
    const res = await open.fetch(`${rx.url}/redirect?to=${encodeURIComponent('/final')}`, { method: 'POST', body: 'x' });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${rx.url}/final`);
    expect(JSON.parse(res.body.toString())).toEqual({ method: 'GET', body: '' });
  });

  it.each(['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', 'http://[::1]:1/', 'file:///etc/passwd'])('refuses a redirect from an allowed receiver to %s', async (to) => {
    const before = rx.requests.length;
    const err = await refusal(open.fetch(`${rx.url}/redirect?to=${encodeURIComponent(to)}`));
    expect(['forbidden_address', 'invalid_url']).toContain(err.reason);
    expect(rx.requests.length).toBe(before + 1);
  });

  it('gives up after 5 redirects', async () => {
    const err = await refusal(open.fetch(`${rx.url}/loop`));
    expect(err.reason).toBe('too_many_redirects');
  });

  it('caps the response size', async () => {
    expect((await open.fetch(`${rx.url}/big`, { maxBytes: 5000 })).body.length).toBe(5000);
    const err = await refusal(open.fetch(`${rx.url}/big`, { maxBytes: 4999 }));
    expect(err.reason).toBe('too_large');
    expect((await open.fetch(`${rx.url}/big`, { maxBytes: 100, oversize: 'truncate' })).body.length).toBe(100);
  });

  it('caps a chunked response without content-length', async () => {
    const chunked = await startHttpReceiver(() => ({ headers: { 'transfer-encoding': 'chunked' }, body: Buffer.alloc(70_000) }));
    try {
      expect((await refusal(open.fetch(chunked.url, { maxBytes: 1000 }))).reason).toBe('too_large');
    } finally {
      await chunked.close();
    }
  });

  it('stops a target that does not answer within the time limit', async () => {
    const hanging = await startHttpReceiver(() => ({ hang: true }));
    try {
      const err = await refusal(open.fetch(hanging.url, { timeoutMs: 200 }));
      expect(err.reason).toBe('timeout');
    } finally {
      await hanging.close();
    }
  });

  it('counts a resolver that never answers against the time limit', async () => {
    const stuck = new SafeFetch({ allow: [], resolve: () => new Promise(() => undefined) });
    expect((await refusal(stuck.fetch('https://slow-dns.example/', { timeoutMs: 100 }))).reason).toBe('timeout');
  });

  it('reports an unresolvable host and a closed port clearly', async () => {
    const dnsFails = new SafeFetch({ allow: [], resolve: async () => { throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' }); } });
    const err = await refusal(dnsFails.fetch('https://no-such-host.example/'));
    expect(err.reason).toBe('dns_failure');
    expect(err.message).toContain('ENOTFOUND');
    const closedPort = await startHttpReceiver();
    const port = closedPort.port;
    await closedPort.close();
    const refused = await refusal(open.fetch(`http://127.0.0.1:${port}/`));
    expect(refused.reason).toBe('connection_failed');
    expect(refused.message).toContain('ECONNREFUSED');
  });
});
