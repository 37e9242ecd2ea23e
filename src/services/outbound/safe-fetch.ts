import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';
import { AddressPolicy } from './address-policy.js';
import { OutboundError } from './outbound-error.js';

export interface SafeFetchOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'HEAD';
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Total time for every hop, headers and body together. */
  timeoutMs?: number;
  /** Largest response body accepted; bigger ones fail with reason `too_large`... */
  maxBytes?: number;
  /** ...or, with `truncate`, are cut there (when only the status matters, as for webhooks). */
  oversize?: 'error' | 'truncate';
  /** Redirects followed (each re-checked); 0 returns the 3xx response as is. */
  maxRedirects?: number;
}

export interface SafeResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export interface SafeFetchConfig {
  /** `config.outboundAllow`: host names (`hooks.internal`, `*.corp.example`), addresses and CIDR ranges. */
  allow: readonly string[];
  /** DNS resolution; tests inject one to prove the connection uses the checked address. */
  resolve?: Resolver;
  userAgent?: string;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;

/** The one way Vigil requests a URL a user gave it (webhook targets, `upload_url`): http(s)
 * only, no loopback/private/link-local/metadata destinations unless allow-listed, the checked
 * address is the one connected to (no DNS rebinding), redirects re-checked, size and time capped. */
export class SafeFetch {
  private readonly policy: AddressPolicy;
  private readonly resolve: Resolver;

  constructor(private readonly config: SafeFetchConfig) {
    this.policy = new AddressPolicy(config.allow);
    this.resolve = config.resolve ?? ((host) => dns.promises.lookup(host, { all: true, verbatim: true }));
  }

  /** Checks what can be known without DNS (scheme, literal addresses, metadata names); the API
   * calls it when a webhook is created. Returns the parsed URL. */
  checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundError('invalid_url', `"${truncate(raw)}" is not a valid URL.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundError('invalid_url', `Only http and https URLs are allowed, not ${url.protocol.replace(/:$/, '')}.`);
    }
    const host = hostOf(url);
    if (!host) throw new OutboundError('invalid_url', 'The URL has no host.');
    if (this.policy.hostAllowed(host)) return url;
    if (ipaddr.isValid(host)) this.policy.checkAddress(host, host);
    else this.policy.checkHostName(host);
    return url;
  }

  /** Requests `raw` and returns the whole (capped) response, whatever its status. */
  async fetch(raw: string, options: SafeFetchOptions = {}): Promise<SafeResponse> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const signal = AbortSignal.timeout(timeoutMs);
    let url = this.checkUrl(raw);
    let method: string = options.method ?? 'GET';
    let body = options.body;
    let headers: Record<string, string> = { ...(this.config.userAgent ? { 'user-agent': this.config.userAgent } : {}), ...lowerKeys(options.headers) };
    try {
      for (let hop = 0; ; hop++) {
        const res = await this.hop(url, { method, headers, body, signal, maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES, truncate: options.oversize === 'truncate' });
        const location = res.headers.location;
        if (!isRedirect(res.status) || !location || maxRedirects === 0) return res;
        if (hop >= maxRedirects) throw new OutboundError('too_many_redirects', `More than ${maxRedirects} redirects, starting at ${describe(raw)}.`);
        const next = this.checkUrl(resolveLocation(location, url));
        // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
          headers = omit(headers, ['content-type', 'content-length']);
        }
        // Credentials meant for one origin never travel to another.
        if (next.origin !== url.origin) headers = omit(headers, ['authorization', 'cookie']);
        url = next;
      }
    } catch (err) {
      if (err instanceof OutboundError) throw err;
      if (signal.aborted) throw new OutboundError('timeout', `${describe(raw)} did not answer within ${timeoutMs} ms.`, { cause: err });
      throw new OutboundError('connection_failed', `Could not reach ${describe(url.toString())}: ${errorText(err)}.`, { cause: err });
    }
  }

  private async hop(url: URL, o: { method: string; headers: Record<string, string>; body: Buffer | string | undefined; signal: AbortSignal; maxBytes: number; truncate: boolean }): Promise<SafeResponse> {
    const pinned = await this.resolveChecked(url, o.signal);
    const headers = { ...o.headers };
    // Credentials in the URL become a header: undici would not send them.
    if (url.username || url.password) {
      headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    }
    const target = new URL(url);
    target.username = '';
    target.password = '';
    // One agent per hop whose lookup only ever returns the checked addresses: the socket
    // cannot connect anywhere else, whatever DNS answers by then.
    const agent = new Agent({ connect: { lookup: pinnedLookup(pinned) }, connections: 1, pipelining: 0 });
    try {
      const res = await request(target, { method: o.method as 'GET', headers, body: o.body, signal: o.signal, dispatcher: agent });
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
      const declared = Number(out['content-length']);
      if (Number.isFinite(declared) && declared > o.maxBytes && !o.truncate) {
        res.body.destroy();
        throw tooLarge(o.maxBytes);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (size + chunk.length > o.maxBytes) {
          res.body.destroy();
          if (!o.truncate) throw tooLarge(o.maxBytes);
          chunks.push(chunk.subarray(0, o.maxBytes - size));
          break;
        }
        size += chunk.length;
        chunks.push(chunk);
      }
      return { status: res.statusCode, headers: out, body: Buffer.concat(chunks), url: target.toString() };
    } finally {
      void agent.destroy().catch(() => undefined);
    }
  }

  /** Resolves the host and checks every address (one forbidden record refuses the host: a name
   * mixing public and private records is a rebinding attempt). */
  private async resolveChecked(url: URL, signal: AbortSignal): Promise<LookupAddress[]> {
    const host = hostOf(url);
    if (ipaddr.isValid(host)) {
      const addr = ipaddr.parse(host);
      if (!this.policy.hostAllowed(host)) this.policy.checkAddress(host, host);
      return [{ address: addr.toString(), family: addr.kind() === 'ipv6' ? 6 : 4 }];
    }
    let records: LookupAddress[];
    try {
      // A slow resolver counts against the same time limit as the rest of the request.
      records = await Promise.race([this.resolve(host), aborted(signal)]);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new OutboundError('dns_failure', `The host ${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? errorText(err)}).`, { cause: err });
    }
    if (records.length === 0) throw new OutboundError('dns_failure', `The host ${host} has no address.`);
    if (!this.policy.hostAllowed(host)) for (const r of records) this.policy.checkAddress(r.address, host);
    return records.map((r) => ({ address: r.address, family: r.family }));
  }


}

function pinnedLookup(records: LookupAddress[]) {
  return (_host: string, options: LookupOptions, callback: (...args: any[]) => void): void => {
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = family ? records.filter((r) => r.family === family) : records;
    if (usable.length === 0) {
      callback(Object.assign(new Error('no pinned address of the requested family'), { code: 'ENOTFOUND' }));
    } else if (options.all) {
      callback(null, usable);
    } else {
      callback(null, usable[0]!.address, usable[0]!.family);
    }
  };
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).toString();
  } catch {
    throw new OutboundError('invalid_url', `The server redirected to an invalid URL: ${truncate(location)}.`);
  }
}

function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

function tooLarge(maxBytes: number): OutboundError {
  return new OutboundError('too_large', `The response is larger than the ${maxBytes}-byte limit.`);
}

function lowerKeys(h: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) out[k.toLowerCase()] = v;
  return out;
}

function omit(h: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(h).filter(([k]) => !keys.includes(k)));
}

/** A URL as shown in messages: no credentials, no query (it may carry tokens). */
function describe(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return truncate(raw);
  }
}

function truncate(s: string): string {
  return s.length > 100 ? `${s.slice(0, 100)}...` : s;
}

function errorText(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.code ?? e.cause?.message ?? e.message ?? String(err);
}
