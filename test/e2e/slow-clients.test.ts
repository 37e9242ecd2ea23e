import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

const TIMEOUT_MS = 1000;

/** Opens a raw connection, sends `head`, then one small chunk every 100 ms for as long as the
 * server keeps the socket; resolves with how long that was and what the server answered. */
function trickle(port: number, head: string, drip: string): Promise<{ closedAfterMs: number; answer: string }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    let answer = '';
    const timer = setInterval(() => socket.writable && socket.write(drip), 100);
    socket.on('data', (d) => (answer += d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - started, answer });
    });
  });
}

/** Slow loris: a client that sends its headers or its body a few bytes at a time is cut off at
 * the request timeout instead of holding a connection (and an upload slot) for ever. The
 * production timeout is 60 s; the same wiring is exercised here with 1 s. */
describe('slow clients', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp({}, { workers: false });
    app = await buildApp(t.container, { logger: false, requestTimeoutMs: TIMEOUT_MS });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('keeps the 60 s request timeout by default', () => {
    expect(t.app.server.requestTimeout).toBe(60_000);
  });

  it('cuts off an upload whose body trickles in, with a 408', async () => {
    const a = await t.account();
    const head = [
      'POST /v1/camera-monitoring/create-log/ HTTP/1.1', 'Host: vigil.test', `Authorization: Token ${a.token}`,
      'Content-Type: multipart/form-data; boundary=XYZ', 'Content-Length: 1000000', '', '--XYZ\r\n',
    ].join('\r\n');
    const { closedAfterMs, answer } = await trickle(port, head, 'aaaaaaaaaa');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(closedAfterMs).toBeLessThan(TIMEOUT_MS + 2000);
  });

  it('cuts off a client that trickles its headers', async () => {
    const { closedAfterMs } = await trickle(port, 'GET /healthz HTTP/1.1\r\nHost: vigil.test\r\n', 'X-Slow: a\r\n');
    expect(closedAfterMs).toBeLessThan(TIMEOUT_MS + 2000);
  });
});
