import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sceneJpeg } from '../fixtures/images.js';
import { startHttpReceiver } from '../helpers/http-receiver.js';
import { exited, freePort, runVigil, startVigil } from '../helpers/processes.js';

/** SIGTERM while a job hangs (a webhook target that never answers): the process exits after the
 * grace periods instead of hanging its supervisor, and the job it left is run again by the next
 * process once its lease runs out. Embedded SQLite only: the point is the process, not the store. */
describe.skipIf(process.env.VIGIL_TEST_DB === 'postgres')('stopping with a job that hangs', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-stop-'));
  const target = await startHttpReceiver(() => ({ hang: true }));
  afterAll(async () => {
    await target.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('exits within twice SHUTDOWN_GRACE_MS and the next process delivers what it left', async () => {
    const env = {
      DATA_DIR: dataDir, LOG_LEVEL: 'warn', OUTBOUND_ALLOW: '127.0.0.1', WORKER_THREADS: '1',
      SHUTDOWN_GRACE_MS: '1000', WEBHOOK_TIMEOUT_MS: '120000', JOB_LEASE_SECONDS: '2',
    };
    const { token } = JSON.parse((await runVigil(['accounts', 'create', '--email', 'stop@example.com', '--json'], env)).stdout);
    const auth = { authorization: `Token ${token}` };
    const port = await freePort();
    let server = await startVigil([], env, port);
    const base = `http://127.0.0.1:${port}/v1`;
    const hook = await fetch(`${base}/webhooks/`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${target.url}/hook`, family: 'plate-reader' }),
    });
    expect(hook.status, await hook.text()).toBe(201);
    const form = new FormData();
    form.append('upload', new Blob([await sceneJpeg(320, 240, 5)], { type: 'image/jpeg' }), 'scene.jpg');
    const read = await fetch(`${base}/plate-reader/`, { method: 'POST', body: form, headers: auth });
    expect(read.status, await read.text()).toBe(201);
    await target.waitFor(1, 30_000);

    const stopAt = Date.now();
    server.kill('SIGTERM');
    expect(await exited(server), server.output()).toBe(1);
    const took = Date.now() - stopAt;
    expect(took).toBeLessThan(2 * 1000 + 3000);
    expect(server.output()).toContain('left to their lease');

    // The next process (a target that answers now) delivers the webhook the stopped one left.
    target.respond(() => ({ status: 200 }));
    server = await startVigil([], env, port);
    try {
      const received = await target.waitFor(2, 30_000);
      expect(received[1]!.json()).toEqual(received[0]!.json());
    } finally {
      server.kill('SIGTERM');
      await exited(server);
    }
  }, 90_000);
});
