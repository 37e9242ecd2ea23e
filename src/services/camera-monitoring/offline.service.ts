import type { CameraLogRepository } from '../../storage/repositories/camera-log.repository.js';
import type { CameraRepository } from '../../storage/repositories/camera.repository.js';
import type { AlertService } from './alerts.service.js';
import type { EventPublisher } from '../notifications/ports.js';
import { cameraState } from './analysis.service.js';

/** Gives an `offline` log to every camera that has not uploaded for `offlineAfterSeconds`. */
export class OfflineSweepService {
  constructor(
    private readonly cameras: CameraRepository,
    private readonly logs: CameraLogRepository,
    private readonly alerts: AlertService,
    private readonly options: { offlineAfterSeconds: number; events: EventPublisher },
  ) {}

  /** Returns how many cameras went offline. Safe to run concurrently: a camera is marked by one
   * conditional update, so only one sweeper writes its log. */
  async sweep(now = Date.now()): Promise<number> {
    const silent = await this.cameras.listSilentSince(now - this.options.offlineAfterSeconds * 1000);
    let marked = 0;
    for (const camera of silent) {
      if (!(await this.cameras.markOffline(camera.id, camera.last_upload_at))) continue;
      const log = await this.logs.insert({ camera_id: camera.id, status: 'offline', anomalies: '{}', scores: null, image_id: null, detail: null, created_at: now });
      await this.cameras.setLatest(camera.id, 'offline', log.id);
      await this.options.events.publish(camera.account_id, cameraState(camera, { status: 'offline', anomalies: {}, scores: null }, now));
      await this.alerts.consider({ camera, status: 'offline', anomalies: {}, snapshotImageId: null }, now);
      marked++;
    }
    return marked;
  }
}
