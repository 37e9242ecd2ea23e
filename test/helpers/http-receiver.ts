import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON (throws when it is not). */
  json<T = any>(): T;
  /** The body parsed as multipart or urlencoded form data. */
  form(): Promise<FormData>;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Never answer (a target that hangs); the socket is closed by close(). */
  hang?: boolean;
}

/** Decides the answer to the n-th request (0-based). Default: 200 "ok". */
export type Responder = (req: ReceivedRequest, index: number) => Reply | Promise<Reply>;

export interface HttpReceiver {
  /** Base URL, e.g. `http://127.0.0.1:43567`. */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Changes how the following requests are answered. */
  respond(responder: Responder): void;
  /** Resolves once at least `count` requests arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records every request (webhook targets, upload_url
 * sources). Tests reach it with `OUTBOUND_ALLOW=127.0.0.1`. */
export async function startHttpReceiver(responder: Responder = () => ({})): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  let current = responder;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const received: ReceivedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body,
        json: () => JSON.parse(body.toString('utf8')),
        form: () => new Response(body, { headers: { 'content-type': String(req.headers['content-type'] ?? '') } }).formData(),
      };
      const index = requests.push(received) - 1;
      for (const w of waiters) w();
      void Promise.resolve(current(received, index)).then(
        (reply) => {
          if (reply.hang) return;
          res.writeHead(reply.status ?? 200, reply.headers ?? { 'content-type': 'text/plain' });
          res.end(reply.body ?? 'ok');
        },
        () => {
          res.writeHead(500);
          res.end('responder failed');
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    respond(r) {
      current = r;
    },
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(requests.slice());
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} requests, got ${requests.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
