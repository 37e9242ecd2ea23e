import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlateReader, PlateReadResult } from '../../../vision/plates/plate.types.js';
import { sceneJpeg } from '../../../../test/fixtures/images.js';
import { startHttpReceiver, type HttpReceiver } from '../../../../test/helpers/http-receiver.js';
import { startSmtpSink, type SmtpSink } from '../../../../test/helpers/smtp-sink.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';

/** A reader that reads the plate the test names next. */
class ScriptedReader implements PlateReader {
  next = '';
  async read(): Promise<PlateReadResult> {
    const plate = this.next;
    return { plates: [{ box: { xmin: 10, ymin: 20, xmax: 90, ymax: 45 }, plate, region: { code: 'us', score: 0.8 }, score: 0.9, candidates: [{ plate, score: 0.9 }], dscore: 0.95, vehicle: undefined }], vehiclesWithoutPlate: [] };
  }
}

describe('watchlists', () => {
  let t: TestApp;
  let reader: ScriptedReader;
  let receiver: HttpReceiver;
  let smtp: SmtpSink;
  let image: Buffer;
  beforeAll(async () => {
    receiver = await startHttpReceiver();
    smtp = await startSmtpSink();
    reader = new ScriptedReader();
    t = await buildTestApp({ RECOGNITION_RATE_PER_SECOND: '1000', OUTBOUND_ALLOW: '127.0.0.1', SMTP_URL: smtp.url }, { plateReader: reader });
    image = await sceneJpeg(200, 120, 4);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await smtp.close();
  });
  const call = (auth: Record<string, string>, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });

  it('are created, listed, changed and deleted by their account alone', async () => {
    const a = await t.account();
    const created = await call(a.auth, 'POST', '/v1/watchlists/', { name: 'stolen', tag: 'alert', fuzzy: true, plates: [{ plate: 'ABC-1234', note: 'reported 3 Nov' }, { plate: 'abc1234' }] });
    expect(created.statusCode, created.body).toBe(201);
    const list = created.json();
    expect(list).toMatchObject({ name: 'stolen', tag: 'alert', fuzzy: true, plates: [{ plate: 'abc1234', note: 'reported 3 Nov' }] });
    expect((await call(a.auth, 'POST', '/v1/watchlists/', { name: 'stolen', tag: 'deny' })).statusCode).toBe(409);
    const badTag = await call(a.auth, 'POST', '/v1/watchlists/', { name: 'x', tag: 'maybe' });
    expect(badTag.statusCode).toBe(400);
    expect(badTag.json().detail).toMatch(/alert|allow|deny/);
    expect((await call(a.auth, 'POST', '/v1/watchlists/', { name: 'x', tag: 'allow', plates: [{ plate: '!' }] })).json().code).toBe('invalid_plate');
    const replaced = await call(a.auth, 'PUT', `/v1/watchlists/${list.id}/plates/`, { plates: [{ plate: 'xyz 987' }] });
    expect(replaced.json().plates).toEqual([{ plate: 'xyz987', note: '' }]);
    expect((await call(a.auth, 'GET', '/v1/watchlists/')).json().map((l: { name: string }) => l.name)).toEqual(['stolen']);
    const b = await t.account();
    expect((await call(b.auth, 'GET', `/v1/watchlists/${list.id}/`)).statusCode).toBe(404);
    expect((await call(b.auth, 'DELETE', `/v1/watchlists/${list.id}/`)).statusCode).toBe(404);
    expect((await call(a.auth, 'DELETE', `/v1/watchlists/${list.id}/`)).statusCode).toBe(204);
    expect((await call(a.auth, 'GET', `/v1/watchlists/${list.id}/`)).statusCode).toBe(404);
  });

  it('match a read plate, its look-alikes, and on fuzzy lists a plate one character off', async () => {
    const a = await t.account();
    await call(a.auth, 'POST', '/v1/watchlists/', { name: 'exact', tag: 'deny', plates: [{ plate: 'abc1234' }] });
    await call(a.auth, 'POST', '/v1/watchlists/', { name: 'near', tag: 'alert', fuzzy: true, plates: [{ plate: 'abc1234' }] });
    const names = async (plate: string) => (await t.container.watchlists.matcher(a.id))(plate).map((m) => m.watchlist.name);
    expect(await names('abc1234')).toEqual(['exact', 'near']);
    expect(await names('a8c1234')).toEqual(['exact', 'near']);
    expect(await names('abc1284')).toEqual(['near']);
    expect(await names('xyz9876')).toEqual([]);
  });

  it('send watchlist.match to plate-watchlist webhooks when a call reads a listed plate', async () => {
    const a = await t.account();
    await call(a.auth, 'POST', '/v1/watchlists/', { name: 'vip', tag: 'allow', plates: [{ plate: 'kjh7788', note: 'the director' }] });
    expect((await call(a.auth, 'POST', '/v1/webhooks/', { url: `${receiver.url}/watch`, family: 'plate-watchlist' })).statusCode).toBe(201);
    for (const plate of ['zzz1111', 'kjh7788']) {
      reader.next = plate;
      const res = await call(a.auth, 'POST', '/v1/plate-reader/', { upload: image.toString('base64'), camera_id: 'gate' });
      expect(res.statusCode).toBe(201);
    }
    await t.container.runner.drain();
    const [hit] = (await receiver.waitFor(1)).filter((r) => r.url === '/watch');
    expect(hit!.json()).toMatchObject({
      hook: { event: 'watchlist.match' },
      data: { watchlist: { name: 'vip', tag: 'allow' }, entry: { plate: 'kjh7788', note: 'the director' }, exact: true, camera_id: 'gate', result: { plate: 'kjh7788' } },
    });
    expect(receiver.requests.filter((r) => r.url === '/watch')).toHaveLength(1);
  });

  it('e-mail the account when a plate on an alert or deny list is read, not an allow list', async () => {
    const a = await t.account();
    await call(a.auth, 'POST', '/v1/watchlists/', { name: 'stolen', tag: 'alert', fuzzy: true, plates: [{ plate: 'qrs4455', note: 'reported 3 Nov' }] });
    await call(a.auth, 'POST', '/v1/watchlists/', { name: 'staff', tag: 'allow', plates: [{ plate: 'tuv6677' }] });
    const before = smtp.messages.length;
    for (const plate of ['tuv6677', 'qrs4456']) {
      reader.next = plate;
      expect((await call(a.auth, 'POST', '/v1/plate-reader/', { upload: image.toString('base64'), camera_id: 'yard' })).statusCode).toBe(201);
    }
    await t.container.runner.drain();
    const mails = (await smtp.waitFor(before + 1)).slice(before).filter((m) => m.to.includes(a.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Vigil: QRS4456 on watchlist stolen');
    expect(mails[0]!.text).toContain('QRS4456 was read at camera yard');
    expect(mails[0]!.text).toContain('as QRS4455 one character off: reported 3 Nov');
  });
});
