import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const VIGIL_BIN = path.join(REPO_ROOT, 'bin/vigil.js');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Runs the built CLI (`bin/vigil.js`, as `npx vigil` would) to completion. */
export function runVigil(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [VIGIL_BIN, ...args], { env: { ...process.env, ...env }, cwd: REPO_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts `vigil serve` and waits until /healthz answers. */
export async function startVigil(args: string[], env: NodeJS.ProcessEnv, port: number): Promise<ChildProcess & { output: () => string }> {
  const child = spawn(process.execPath, [VIGIL_BIN, 'serve', ...args], { env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, cwd: REPO_ROOT });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vigil exited early:\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) return Object.assign(child, { output: () => output });
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`vigil did not start:\n${output}`);
}

export function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((r) => child.once('exit', (code) => r(code)));
}

/** Deletes the Redis keys of the BullMQ queue of the installation whose PostgreSQL database is
 * `databaseUrl` (tests and benchmarks share one Redis; its queue name is in `settings`). */
export async function dropJobQueue(databaseUrl: string, redisUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let name: string | undefined;
  try {
    name = (await client.query("select value from settings where key = 'job_queue_name'")).rows[0]?.value;
  } finally {
    await client.end();
  }
  if (!name) return;
  const redis = new Redis(redisUrl);
  try {
    // Every lane's queue: `<name>` and `<name>-<lane>`.
    for await (const keys of redis.scanStream({ match: `vigil:${name}*`, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length) await redis.del(...keys);
    }
  } finally {
    redis.disconnect();
  }
}

/** Starts `vigil worker` and waits until it says it started (connected, runner started). */
export async function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [VIGIL_BIN, 'worker'], { env: { ...process.env, ...env }, cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`vigil worker did not start:\n${output}`)), 60_000);
    child.stderr!.on('data', (d) => {
      output += d;
      if (output.includes('vigil worker started')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', () => reject(new Error(`vigil worker exited early:\n${output}`)));
  });
  child.stderr!.resume();
  return child;
}
