import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

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
