import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { openDatabase } from '../../src/storage/db/database.js';
import { sceneJpeg } from '../fixtures/images.js';
import { exited, freePort, runVigil, startVigil } from '../helpers/processes.js';

const onPostgres = process.env.VIGIL_TEST_DB === 'postgres';
const PG = process.env.VIGIL_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The embedded server (API and workers in one process) killed with SIGKILL while uploads stream
 * in and analyses run, then started again on the same data: every upload that got its 201 has
 * exactly one log, every stored image is whole, nothing is analysed twice. */
describe('SIGKILL of the embedded server mid-stream', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-kill-'));
  const dbName = `vigil_t_kill_${process.pid}_${Date.now()}`;
  const admin = async (query: string) => {
    const c = new pg.Client({ connectionString: `${PG}/postgres` });
    await c.connect();
    await c.query(query).finally(() => c.end());
  };
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
    if (onPostgres) await admin(`drop database if exists ${dbName} with (force)`);
  });

  it('keeps every accepted upload, whole and analysed once, across a SIGKILL and a restart', async () => {
    if (onPostgres) await admin(`create database ${dbName}`);
    const env = {
      DATA_DIR: dataDir, LOG_LEVEL: 'warn', CAMERA_UPLOAD_INTERVAL_SECONDS: '0', UPLOAD_RATE_PER_SECOND: '1000', WORKER_THREADS: '1',
      // Jobs the killed process held are taken again this soon after the restart.
      JOB_LEASE_SECONDS: '2',
      ...(onPostgres ? { DATABASE_URL: `${PG}/${dbName}` } : {}),
    };
    const { token } = JSON.parse((await runVigil(['accounts', 'create', '--email', 'kill@example.com', '--json'], env)).stdout);
    expect((await runVigil(['licenses', 'create', '--account', 'kill@example.com', '--size', '50', '--json'], env)).code).toBe(0);
    const scene = await sceneJpeg(640, 360, 21);
    // Frames whose analysis gives a result in any order: jobs left running by the kill run after
    // later ones, so any frame may become a camera's reference. (A darkened frame against a
    // blurred reference read as a first obstruction, held for review.)
    const frames = [scene, await sharp(scene).blur(8).jpeg().toBuffer(), await sharp(scene).jpeg({ quality: 60 }).toBuffer()];
    const known = new Set(frames.map(sha));

    const port = await freePort();
    let server = await startVigil([], env, port);
    const accepted = new Map<string, number>();
    let killed = false;
    const post = async (serial: string, bytes: Buffer) => {
      const form = new FormData();
      form.append('upload', new Blob([bytes], { type: 'image/jpeg' }), 'f.jpg');
      form.append('camera_id', serial);
      const res = await fetch(`http://127.0.0.1:${port}/v1/camera-monitoring/create-log/`, { method: 'POST', body: form, headers: { authorization: `Token ${token}` } });
      if (res.status === 201) accepted.set(serial, (accepted.get(serial) ?? 0) + 1);
      else expect(res.status, await res.text()).toBe(201);
    };
    // Six cameras upload back to back; one more client streams its body slowly, so the kill
    // lands in the middle of a request body.
    const loops = Array.from({ length: 6 }, async (_, i) => {
      for (let n = 0; !killed; n++) await post(`KILL-${i}`, frames[n % frames.length]!).catch(() => undefined);
    });
    const slow = (async () => {
      const half = frames[0]!.subarray(0, frames[0]!.length / 2);
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          await new Promise((r) => setTimeout(r, 200));
          c.enqueue(half.subarray(0, 1024));
        },
      });
      await fetch(`http://127.0.0.1:${port}/v1/camera-monitoring/create-log/`, {
        method: 'POST', body, duplex: 'half', headers: { authorization: `Token ${token}`, 'content-type': 'multipart/form-data; boundary=x' },
      } as RequestInit).catch(() => undefined);
    })();
    const total = () => [...accepted.values()].reduce((a, b) => a + b, 0);
    for (let i = 0; i < 600 && total() < 15; i++) await new Promise((r) => setTimeout(r, 50));
    expect(total()).toBeGreaterThanOrEqual(15);
    server.kill('SIGKILL');
    killed = true;
    await exited(server);
    await Promise.all([...loops, slow]);
    const acceptedTotal = total();

    // Same data, new process: the queue picks up where the dead one stopped.
    server = await startVigil([], env, port);
    const config = loadConfig({}, env);
    const db = openDatabase(config.database);
    try {
      const deadline = Date.now() + 45_000;
      const undone = async () =>
        (await db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', 'camera.analyze').where('status', '<>', 'done').executeTakeFirstOrThrow()).n;
      // The kill left analyses behind (queued, or running in the dead process).
      expect(Number(await undone()), 'analyses pending at the restart').toBeGreaterThan(0);
      while (Date.now() < deadline && Number(await undone()) > 0) await new Promise((r) => setTimeout(r, 200));
      expect(Number(await undone()), 'analyses left undone').toBe(0);

      const images = await db.selectFrom('images').select(['id', 'blob_key', 'byte_size']).execute();
      const logs = await db.selectFrom('camera_logs as l').innerJoin('cameras as c', 'c.id', 'l.camera_id').select(['l.image_id', 'l.status', 'c.serial']).execute();
      // Every 201 has its log; an upload committed as the process died (no 201 sent) may add one.
      expect(images.length).toBeGreaterThanOrEqual(acceptedTotal);
      expect(images.length).toBeLessThanOrEqual(acceptedTotal + 7);
      for (const [serial, n] of accepted) expect(logs.filter((l) => l.serial === serial).length, serial).toBeGreaterThanOrEqual(n);
      // One log per image, each with a result.
      expect(logs).toHaveLength(images.length);
      expect(new Set(logs.map((l) => l.image_id)).size).toBe(images.length);
      for (const l of logs) expect(['normal', 'anomaly', 'config_issue']).toContain(l.status);
      // Every stored image is whole: byte for byte one of the frames that were sent.
      for (const img of images) {
        const bytes = await fs.readFile(path.join(dataDir, 'blobs', img.blob_key));
        expect(bytes.length, img.blob_key).toBe(img.byte_size);
        expect(known.has(sha(bytes)), `${img.blob_key} is not a frame that was sent`).toBe(true);
      }
    } finally {
      await db.destroy();
      server.kill('SIGTERM');
      expect(await exited(server)).toBe(0);
    }
  }, 120_000);
});
