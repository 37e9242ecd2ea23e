import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import type { JobQueue } from '../../queue/jobs.js';
import { AccountRepository } from '../../storage/repositories/account.repository.js';
import { AlertRepository } from '../../storage/repositories/alert.repository.js';
import { CameraRepository } from '../../storage/repositories/camera.repository.js';
import type { Mailer, WebhookNotifier } from '../notifications/ports.js';
import { AlertService } from './alerts.service.js';

describe('alerts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({}, { workers: false });
  });
  afterAll(async () => t.close());

  it('sends an alert whose dispatch runs the moment it is enqueued (no grouping window)', async () => {
    const a = await t.account();
    const license = await t.container.licenses.create({ accountId: a.id, size: 1, expiration: new Date(Date.now() + 86_400_000) });
    const cameras = new CameraRepository(t.container.db);
    const camera = await cameras.create({ accountId: a.id, licenseId: license.id, serial: 'RACE-1' });
    const sent: Array<{ cameras: Array<{ serial: string }> }> = [];
    const webhooks: WebhookNotifier = {
      hasActive: async () => true,
      notify: async (_account, _family, _event, body) => {
        sent.push(body as (typeof sent)[number]);
        return 1;
      },
    };
    const mail: Mailer = { enabled: false, enqueue: async () => false };
    // An idle in-process runner claims a job as soon as it is enqueued: run it right there.
    let service!: AlertService;
    const queue: JobQueue = {
      enqueue: async (_kind, payload) => {
        await service.dispatch((payload as { alertId: number }).alertId);
        return 1;
      },
    };
    service = new AlertService(new AlertRepository(t.container.db), cameras, new AccountRepository(t.container.db), t.container.images, queue, { webhooks, mail }, { groupWindowSeconds: 0 });

    await service.consider({ camera, status: 'anomaly', anomalies: { Blur: 0.9 }, snapshotImageId: null });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.cameras.map((c) => c.serial)).toEqual(['RACE-1']);
  });
});
