import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlateReader, PlateReadResult, PlateReading } from '../../../vision/plates/plate.types.js';
import { sceneJpeg } from '../../../../test/fixtures/images.js';
import { startHttpReceiver, type HttpReceiver } from '../../../../test/helpers/http-receiver.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';

/** A reader that reads whatever plates the test asks for next (at `score`). */
class ScriptedReader implements PlateReader {
  next: string[] = [];
  score = 0.9;
  async read(): Promise<PlateReadResult> {
    const score = this.score;
    const plates: PlateReading[] = this.next.map((plate, i) => ({
      box: { xmin: 10 + 100 * i, ymin: 20, xmax: 90 + 100 * i, ymax: 45 }, plate, region: { code: plate.startsWith('o') ? 'br' : 'us-ca', score: 0.8 },
      score, candidates: [{ plate, score }], dscore: 0.95, vehicle: undefined,
    }));
    return { plates, vehiclesWithoutPlate: [] };
  }
}

describe('plate read history API', () => {
  let t: TestApp;
  let reader: ScriptedReader;
  let image: Buffer;
  beforeAll(async () => {
    reader = new ScriptedReader();
    t = await buildTestApp({ RECOGNITION_RATE_PER_SECOND: '1000', PLATE_HISTORY_IMAGES: 'true' }, { plateReader: reader });
    image = await sceneJpeg(200, 120, 4);
  });
  afterAll(async () => t.close());

  async function read(auth: Record<string, string>, plates: string[], extra: Record<string, string> = {}) {
    reader.next = plates;
    const res = await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', headers: auth, payload: { upload: image.toString('base64'), ...extra } });
    expect(res.statusCode).toBe(201);
  }
  const list = async (auth: Record<string, string>, query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/plate-reads/${query}`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { results: Array<Record<string, any>>; next: string | null };
  };
  const plates = (page: { results: Array<Record<string, any>> }) => page.results.map((r) => r.plate);

  it('keeps every plate a call read, newest first, with the camera, time, scores and photo', async () => {
    const a = await t.account();
    await read(a.auth, ['abc1234'], { camera_id: 'gate', timestamp: '2026-11-01T08:00:00Z' });
    await read(a.auth, ['xyz987', 'olb4809'], { camera_id: 'exit', timestamp: '2026-11-01T09:00:00Z' });
    const page = await list(a.auth);
    expect(plates(page).sort()).toEqual(['abc1234', 'olb4809', 'xyz987']);
    expect(page.results[2]).toMatchObject({
      camera_id: 'gate', timestamp: '2026-11-01T08:00:00.000Z', plate: 'abc1234', score: 0.9, dscore: 0.95, region: { code: 'us-ca' },
      candidates: [{ plate: 'abc1234', score: 0.9 }], box: { xmin: 10, ymin: 20, xmax: 90, ymax: 45 }, vehicle: null,
    });
    const photo = await t.app.inject({ method: 'GET', url: page.results[2]!.image_url.replace('http://vigil.test', '') });
    expect(photo.statusCode).toBe(200);
    expect(photo.rawPayload.equals(image)).toBe(true);
    expect(page.next).toBeNull();
    // Another account's history is its own.
    const b = await t.account();
    expect((await list(b.auth)).results).toEqual([]);
  });

  it('finds a plate exactly, by a look-alike or one character off, and filters by camera, region and time', async () => {
    const a = await t.account();
    await read(a.auth, ['abc1234'], { camera_id: 'gate', timestamp: '2026-11-02T08:00:00Z' });
    await read(a.auth, ['a8c1284'], { camera_id: 'exit', timestamp: '2026-11-02T09:00:00Z' });
    await read(a.auth, ['xyz9876'], { camera_id: 'gate', timestamp: '2026-11-02T10:00:00Z' });
    await read(a.auth, ['olb4809'], { camera_id: 'gate', timestamp: '2026-11-02T11:00:00Z' });
    expect(plates(await list(a.auth, '?plate=ABC-1234'))).toEqual(['abc1234']);
    expect(plates(await list(a.auth, '?plate=abc1234&fuzzy=true'))).toEqual(['a8c1284', 'abc1234']);
    expect(plates(await list(a.auth, '?plate=0LB48O9&fuzzy=1'))).toEqual(['olb4809']);
    expect(plates(await list(a.auth, '?camera_id=gate'))).toEqual(['olb4809', 'xyz9876', 'abc1234']);
    expect(plates(await list(a.auth, '?region=br'))).toEqual(['olb4809']);
    expect(plates(await list(a.auth, '?start=2026-11-02T09:00:00Z&end=2026-11-02T11:00:00Z'))).toEqual(['xyz9876', 'a8c1284']);
    expect(plates(await list(a.auth, '?plate=abc1234&fuzzy=true&camera_id=gate'))).toEqual(['abc1234']);
  });

  it('pages with a cursor until the last page, and refuses a forged one', async () => {
    const a = await t.account();
    for (let i = 0; i < 5; i++) await read(a.auth, [`pag${i}000`], { timestamp: `2026-11-03T0${i}:00:00Z` });
    const seen: string[] = [];
    let url: string | null = '/v1/plate-reads/?limit=2';
    let pages = 0;
    while (url) {
      const res = await t.app.inject({ method: 'GET', url, headers: a.auth });
      const page = res.json() as { results: Array<{ plate: string }>; next: string | null };
      seen.push(...page.results.map((r) => r.plate));
      url = page.next;
      pages++;
    }
    expect(seen).toEqual(['pag4000', 'pag3000', 'pag2000', 'pag1000', 'pag0000']);
    expect(pages).toBe(3);
    const bad = await t.app.inject({ method: 'GET', url: '/v1/plate-reads/?cursor=bm9wZQ', headers: a.auth });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status_code: 400, code: 'invalid_cursor' });
    const badTime = await t.app.inject({ method: 'GET', url: '/v1/plate-reads/?start=yesterday', headers: a.auth });
    expect(badTime.statusCode).toBe(400);
    expect(badTime.json().code).toBe('invalid_timestamp');
  });

  it('exports the filtered history as CSV', async () => {
    const a = await t.account();
    await read(a.auth, ['abc1234'], { camera_id: 'gate, north', timestamp: '2026-11-04T08:00:00Z' });
    await read(a.auth, ['xyz9876'], { camera_id: 'exit', timestamp: '2026-11-04T09:00:00Z' });
    const res = await t.app.inject({ method: 'GET', url: '/v1/plate-reads.csv?camera_id=gate,%20north', headers: a.auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.body.split('\n');
    expect(lines[0]).toBe('id,timestamp,camera_id,plate,score,region,dscore,xmin,ymin,xmax,ymax,vehicle_type,image_url');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^\d+,2026-11-04T08:00:00.000Z,"gate, north",abc1234,0.9,us-ca,0.95,10,20,90,45,,http:\/\/vigil.test\/v1\/images\//);
  });

  it('keeps no unread redaction boxes, and needs a token of an account with plate reading', async () => {
    const a = await t.account();
    await read(a.auth, ['', 'def5678']);
    expect(plates(await list(a.auth))).toEqual(['def5678']);
    expect((await t.app.inject({ method: 'GET', url: '/v1/plate-reads/' })).statusCode).toBe(401);
    const camerasOnly = await t.account(['camera-monitoring']);
    const res = await t.app.inject({ method: 'GET', url: '/v1/plate-reads/', headers: camerasOnly.auth });
    expect(res.statusCode).toBe(403);
  });

  it('removes reads past the retention, with their photos and visits', async () => {
    const a = await t.account();
    await read(a.auth, ['old1234']);
    const [stored] = (await list(a.auth)).results;
    const removed = await t.container.plateHistory.purge(Date.now() + 31 * 86_400_000);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect((await list(a.auth)).results).toEqual([]);
    const visits = await t.app.inject({ method: 'GET', url: '/v1/plate-visits/', headers: a.auth });
    expect(visits.json().results).toEqual([]);
    const photo = await t.app.inject({ method: 'GET', url: stored!.image_url.replace('http://vigil.test', '') });
    expect(photo.statusCode).toBe(404);
  });
});

describe('plate visits', () => {
  let t: TestApp;
  let reader: ScriptedReader;
  let receiver: HttpReceiver;
  let image: Buffer;
  beforeAll(async () => {
    receiver = await startHttpReceiver();
    reader = new ScriptedReader();
    t = await buildTestApp({ RECOGNITION_RATE_PER_SECOND: '1000', PLATE_VISIT_GAP_SECONDS: '60', OUTBOUND_ALLOW: '127.0.0.1' }, { plateReader: reader });
    image = await sceneJpeg(200, 120, 4);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  async function read(auth: Record<string, string>, plate: string, camera: string, at: string, score = 0.9) {
    reader.next = [plate];
    reader.score = score;
    const res = await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', headers: auth, payload: { upload: image.toString('base64'), camera_id: camera, timestamp: at } });
    expect(res.statusCode).toBe(201);
  }
  const get = async (auth: Record<string, string>, url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('joins reads of one plate at one camera within the gap into one visit, with its best read', async () => {
    const a = await t.account();
    await read(a.auth, 'abc1234', 'gate', '2026-11-05T08:00:00Z', 0.8);
    await read(a.auth, 'abc1z34', 'gate', '2026-11-05T08:00:30Z', 0.7); // a look-alike misread of the same car
    await read(a.auth, 'abc1234', 'gate', '2026-11-05T08:01:20Z', 0.95);
    await read(a.auth, 'abc1234', 'exit', '2026-11-05T08:01:30Z');
    await read(a.auth, 'abc1234', 'gate', '2026-11-05T09:00:00Z'); // back an hour later: a new visit
    const page = await get(a.auth, '/v1/plate-visits/?plate=ABC1234');
    expect(page.results.map((v: any) => [v.camera_id, v.reads, v.first_seen, v.last_seen])).toEqual([
      ['gate', 1, '2026-11-05T09:00:00.000Z', '2026-11-05T09:00:00.000Z'],
      ['exit', 1, '2026-11-05T08:01:30.000Z', '2026-11-05T08:01:30.000Z'],
      ['gate', 3, '2026-11-05T08:00:00.000Z', '2026-11-05T08:01:20.000Z'],
    ]);
    const first = page.results[2];
    expect(first).toMatchObject({ plate: 'abc1234', score: 0.95, region: { code: 'us-ca' } });
    const visit = await get(a.auth, `/v1/plate-visits/${first.id}/`);
    expect(visit.results.map((r: any) => r.plate)).toEqual(['abc1234', 'abc1z34', 'abc1234']);
    expect(visit.results.every((r: any) => r.visit_id === first.id)).toBe(true);
    expect((await get(a.auth, '/v1/plate-visits/?camera_id=exit')).results).toHaveLength(1);
    // Another account sees no such visit.
    const b = await t.account();
    expect((await t.app.inject({ method: 'GET', url: `/v1/plate-visits/${first.id}/`, headers: b.auth })).statusCode).toBe(404);
  });

  it('tells plate-visits webhooks once per visit, and plate-reader webhooks every read', async () => {
    const a = await t.account();
    for (const [path, family] of [['/visits', 'plate-visits'], ['/reads', 'plate-reader']]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks/', headers: a.auth, payload: { url: `${receiver.url}${path}`, family } });
      expect(res.statusCode).toBe(201);
    }
    await read(a.auth, 'kjh7788', 'gate', '2026-11-06T08:00:00Z');
    await read(a.auth, 'kjh7788', 'gate', '2026-11-06T08:00:20Z');
    await read(a.auth, 'kjh7788', 'gate', '2026-11-06T08:00:40Z');
    await t.container.runner.drain();
    const got = await receiver.waitFor(4);
    const visits = got.filter((r) => r.url === '/visits').map((r) => r.json());
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({ hook: { event: 'visit.started' }, data: { plate: 'kjh7788', camera_id: 'gate', reads: 1, first_seen: '2026-11-06T08:00:00.000Z' } });
    expect(got.filter((r) => r.url === '/reads')).toHaveLength(3);
  });
});

describe('plate read history switched off', () => {
  it('stores nothing with PLATE_HISTORY_DAYS=0', async () => {
    const reader = new ScriptedReader();
    const t = await buildTestApp({ PLATE_HISTORY_DAYS: '0' }, { plateReader: reader });
    try {
      const a = await t.account();
      reader.next = ['abc1234'];
      const image = await sceneJpeg(200, 120, 4);
      await t.app.inject({ method: 'POST', url: '/v1/plate-reader/', headers: a.auth, payload: { upload: image.toString('base64') } });
      const res = await t.app.inject({ method: 'GET', url: '/v1/plate-reads/', headers: a.auth });
      expect(res.json().results).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
