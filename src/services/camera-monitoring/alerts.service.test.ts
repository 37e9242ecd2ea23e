import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import type { JobQueue } from '../../queue/jobs.js';
import type { Db } from '../../storage/db/database.js';
import { AccountRepository } from '../../storage/repositories/account.repository.js';
import { AlertRepository } from '../../storage/repositories/alert.repository.js';
import { CameraRepository } from '../../storage/repositories/camera.repository.js';
import { ImageRepository } from '../../storage/repositories/image.repository.js';
import { LicenseRepository } from '../../storage/repositories/license.repository.js';
import { PlateReadRepository } from '../../storage/repositories/plate-read.repository.js';
import { PlateVisitRepository } from '../../storage/repositories/plate-visit.repository.js';
import { WatchlistRepository } from '../../storage/repositories/watchlist.repository.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { Mailer, WebhookNotifier } from '../notifications/ports.js';
import { AlertService } from './alerts.service.js';

describe('alerts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({}, { workers: false });
  });
  afterAll(async () => t.close());

  /** A service with no grouping window whose queue is `enqueue` (called inside the transaction)
   * and whose webhooks are recorded in `sent`. */
  async function setup(enqueue: (trx: Db, alertId: number) => Promise<void>) {
    const a = await t.account();
    const license = await t.container.licenses.create({ accountId: a.id, size: 1, expiration: new Date(Date.now() + 86_400_000) });
    const camera = await new CameraRepository(t.container.db).create({ accountId: a.id, licenseId: license.id, serial: 'RACE-1' });
    const sent: Array<{ cameras: Array<{ serial: string }> }> = [];
    const webhooks: WebhookNotifier = {
      hasActive: async () => true,
      notify: async (_account, _family, _event, body) => {
        sent.push(body as (typeof sent)[number]);
        return 1;
      },
    };
    const mail: Mailer = { enabled: false, enqueue: async () => false };
    // The real transaction and repositories, with a job queue that records what it is given.
    const transaction: UnitOfWork = (work) => t.container.db.transaction().execute((trx) => {
      const jobs: JobQueue = {
        enqueue: async (_kind, payload) => {
          await enqueue(trx, (payload as { alertId: number }).alertId);
          return 1;
        },
      };
      return work({ cameras: new CameraRepository(trx), licenses: new LicenseRepository(trx), alerts: new AlertRepository(trx), images: new ImageRepository(trx), plateReads: new PlateReadRepository(trx), plateVisits: new PlateVisitRepository(trx), watchlists: new WatchlistRepository(trx), jobs });
    });
    const service = new AlertService(new AlertRepository(t.container.db), new AccountRepository(t.container.db), t.container.images, transaction, { webhooks, mail }, { groupWindowSeconds: 0 });
    const change = { camera, status: 'anomaly' as const, anomalies: { Blur: 0.9 }, snapshotImageId: null };
    const alertsOfLicense = async () => (await new AlertRepository(t.container.db).list(license.id, { limit: 10, offset: 0 })).length;
    return { service, change, sent, alertsOfLicense };
  }

  it('enqueues the dispatch with the alert and its camera, so the dispatch always finds the camera', async () => {
    const jobs: number[] = [];
    const { service, change, sent } = await setup(async (trx, alertId) => {
      // A runner that sees this job (it commits with the rest) sees the camera too.
      const rows = await trx.selectFrom('alert_cameras').select('serial').where('alert_id', '=', alertId).execute();
      expect(rows.map((r) => r.serial)).toEqual(['RACE-1']);
      jobs.push(alertId);
    });
    const alertId = await service.consider(change);
    expect(jobs).toEqual([alertId]);
    await service.dispatch(alertId!);
    expect(sent.map((b) => b.cameras.map((c) => c.serial))).toEqual([['RACE-1']]);
  });

  it('keeps nothing when the dispatch cannot be enqueued, so the next try raises and sends the alert', async () => {
    let fail = true;
    const jobs: number[] = [];
    const { service, change, sent, alertsOfLicense } = await setup(async (_trx, alertId) => {
      if (fail) throw new Error('the process died here');
      jobs.push(alertId);
    });
    await expect(service.consider(change)).rejects.toThrow('the process died here');
    expect(await alertsOfLicense()).toBe(0);
    fail = false;
    const alertId = await service.consider(change);
    expect(jobs).toEqual([alertId]);
    await service.dispatch(alertId!);
    expect(sent).toHaveLength(1);
    expect(await alertsOfLicense()).toBe(1);
  });
});
