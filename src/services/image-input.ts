import { OutboundError } from './outbound/outbound-error.js';
import type { SafeFetch } from './outbound/safe-fetch.js';
import { errors } from './errors.js';

/** Where recognition clients put their image: file bytes, a base64 string (optionally a data:
 * URL) or an http(s) URL in `upload`, or a URL in `upload_url`. */
export type ImageSource =
  | { kind: 'bytes'; bytes: Buffer; filename?: string }
  | { kind: 'text'; value: string }
  | { kind: 'url'; url: string };

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const FETCH_TIMEOUT_MS = 15_000;

/** Turns the client's image source into bytes within `maxBytes` (413 above it). A URL is
 * fetched through the SSRF-safe client; its refusals become a 400 that says why. */
export async function resolveImageSource(source: ImageSource | undefined, o: { maxBytes: number; fetch: SafeFetch }): Promise<{ bytes: Buffer; filename?: string }> {
  if (!source) throw errors.badRequest('Missing required parameter: upload (a file, a base64 string or a URL) or upload_url.', 'missing_upload');
  if (source.kind === 'bytes') {
    if (source.bytes.length > o.maxBytes) throw errors.payloadTooLarge(o.maxBytes);
    return { bytes: source.bytes, filename: source.filename };
  }
  const text = source.kind === 'url' ? source.url.trim() : source.value.trim();
  if (source.kind === 'url' || /^https?:\/\//i.test(text)) return fetchImage(text, o);
  return { bytes: decodeBase64(text, o.maxBytes) };
}

function decodeBase64(value: string, maxBytes: number): Buffer {
  const payload = value.replace(/^data:[\w/+.-]+;base64,/i, '').replace(/\s+/g, '');
  if (payload.length === 0 || !BASE64.test(payload)) throw errors.badRequest('upload is neither a file, a URL nor valid base64.', 'invalid_base64');
  if (Math.floor((payload.length * 3) / 4) > maxBytes + 3) throw errors.payloadTooLarge(maxBytes);
  const bytes = Buffer.from(payload, payload.includes('-') || payload.includes('_') ? 'base64url' : 'base64');
  if (bytes.length === 0) throw errors.badRequest('upload is neither a file, a URL nor valid base64.', 'invalid_base64');
  if (bytes.length > maxBytes) throw errors.payloadTooLarge(maxBytes);
  return bytes;
}

async function fetchImage(url: string, o: { maxBytes: number; fetch: SafeFetch }): Promise<{ bytes: Buffer; filename?: string }> {
  try {
    const res = await o.fetch.fetch(url, { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: o.maxBytes });
    if (res.status < 200 || res.status >= 300) throw errors.badRequest(`Could not fetch upload_url: the server answered ${res.status}.`, 'upload_url_failed');
    const name = new URL(res.url).pathname.split('/').pop();
    return { bytes: res.body, filename: name || undefined };
  } catch (err) {
    if (err instanceof OutboundError) {
      if (err.reason === 'too_large') throw errors.payloadTooLarge(o.maxBytes);
      throw errors.badRequest(`Could not fetch upload_url: ${err.message}`, 'upload_url_refused');
    }
    throw err;
  }
}
