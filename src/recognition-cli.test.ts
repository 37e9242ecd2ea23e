import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { plateSceneJpeg } from '../test/fixtures/plate-images.js';
import { textImage } from '../test/fixtures/text-images.js';
import { runCli } from './cli.js';

describe('offline recognition CLI', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-rcli-'));
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));
  const runWith = async (env: Record<string, string>, ...argv: string[]) => {
    let out = '';
    let err = '';
    const code = await runCli(argv, { env: { DATA_DIR: dir, LOG_LEVEL: 'silent', ...env }, out: (t) => void (out += t), err: (t) => void (err += t), errIsTTY: true });
    return { code, json: () => JSON.parse(out), out: () => out, err: () => err };
  };
  const run = (...argv: string[]) => runWith({}, ...argv);

  it('vigil ocr prints the API responses, one per image', async () => {
    const file = path.join(dir, 'vin.jpg');
    await fs.writeFile(file, await textImage([{ text: '1HGCM82633A004352', x: 120, y: 360, size: 64 }]));
    const r = await run('ocr', '--type', 'vin', file, '--json');
    expect(r.code).toBe(0);
    expect(r.json()).toEqual([expect.objectContaining({
      filename: 'vin.jpg', version: 1, camera_id: null,
      results: [{ identifier: { type: 'text', props: { code: [{ value: '1HGCM82633A004352' }], orientation: [{ value: 'horizontal' }], confidence: expect.any(Number) } } }],
    })]);
    const bad = await run('ocr', '--type', 'plates', file, '--json');
    expect([bad.code, bad.json().error.code]).toEqual([1, 'invalid_type']);
  });

  it('vigil plates prints the hosted responses with every field clients read', async () => {
    const file = path.join(dir, 'car.jpg');
    await fs.writeFile(file, (await plateSceneJpeg({ text: 'ABC1234' })).jpeg);
    const r = await run('plates', file, '--regions', 'us', '--mmc', '--json');
    expect(r.code).toBe(0);
    const [res] = r.json();
    expect(res).toMatchObject({ filename: 'car.jpg', version: 1 });
    expect(res.results[0]).toMatchObject({ plate: 'abc1234', dscore: expect.any(Number), candidates: expect.any(Array), vehicle: expect.any(Object), model_make: [{ make: 'unknown', model: 'unknown', score: 0 }] });
  });

  it('vigil plates reads a folder, prints CSV rows, and shows progress on a terminal', async () => {
    const lane = path.join(dir, 'lane');
    await fs.mkdir(lane);
    await fs.writeFile(path.join(lane, '1.jpg'), (await plateSceneJpeg({ text: 'KXT4071' })).jpeg);
    await fs.writeFile(path.join(lane, '2.jpg'), (await plateSceneJpeg({ text: 'BRA2E19' })).jpeg);
    const r = await run('plates', lane, '--format', 'csv');
    expect(r.code).toBe(0);
    const rows = r.out().trim().split('\n');
    expect(rows[0]).toBe('file,plate,score,region,xmin,ymin,xmax,ymax');
    expect(rows.slice(1).map((row) => row.split(',').slice(0, 2).join(','))).toEqual(['1.jpg,kxt4071', '2.jpg,bra2e19']);
    expect(r.err()).toMatch(/\r2\/2 files, [\d.]+\/s, 0s left\n$/);
  });

  it('vigil plates reads with the configured vision settings, as the server does', async () => {
    const file = path.join(dir, 'settings-car.jpg');
    await fs.writeFile(file, (await plateSceneJpeg({ text: 'ABC1234' })).jpeg);
    const bad = await runWith({ PLATE_READER: 'tesseract' }, 'plates', file, '--json');
    expect([bad.code, bad.json().error.code]).toEqual([1, 'invalid_config']);
    expect(bad.json().error.message).toMatch(/PLATE_READER=/);
    for (const reader of ['trained', 'trained-fp32']) {
      const trained = await runWith({ PLATE_READER: reader }, 'plates', file, '--regions', 'us', '--json');
      expect(trained.json()[0].results[0].plate).toBe('abc1234');
    }
  });
});
