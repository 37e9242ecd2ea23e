import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, freePort, runVigil, startVigil } from '../helpers/processes.js';

/** The README's promise, as a user would try it: start the server, create an account with the
 * CLI while it runs, call the API with and without the token, stop it with SIGTERM. */
describe('quick start', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-e2e-'));
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  it('serves licenses to a CLI-created token, 401 without it, and stops cleanly on SIGTERM', async () => {
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    const port = await freePort();
    const server = await startVigil([], env, port);
    try {
      const created = await runVigil(['accounts', 'create', '--email', 'yard@example.com', '--json'], env);
      expect(created.code).toBe(0);
      const { token } = JSON.parse(created.stdout);
      const lic = await runVigil(['licenses', 'create', '--account', 'yard@example.com', '--size', '10', '--json'], env);
      expect(lic.code).toBe(0);

      const url = `http://127.0.0.1:${port}/v1/camera-monitoring/licenses/`;
      const ok = await fetch(url, { headers: { authorization: `Token ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual([JSON.parse(lic.stdout)]);
      const denied = await fetch(url);
      expect(denied.status).toBe(401);
      expect(await denied.json()).toMatchObject({ message: expect.any(String) });
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited(server)).toBe(0);
  });
});
