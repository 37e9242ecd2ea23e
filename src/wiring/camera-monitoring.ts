import type { Config } from '../config/config.js';
import type { SqlJobQueue } from '../queue/sql-job-queue.js';
import { AlertService } from '../services/camera-monitoring/alerts.service.js';
import { CameraAnalysisService } from '../services/camera-monitoring/analysis.service.js';
import { CamerasService } from '../services/camera-monitoring/cameras.service.js';
import { OfflineSweepService } from '../services/camera-monitoring/offline.service.js';
import { CameraUploadService } from '../services/camera-monitoring/upload.service.js';
import type { ImageService } from '../services/images.service.js';
import type { LicenseService } from '../services/licenses.service.js';
import type { Metrics } from '../services/metrics.js';
import type { Notifications } from './notifications.js';
import type { Db } from '../storage/db/database.js';
import type { AccountRepository } from '../storage/repositories/account.repository.js';
import type { AlertRepository } from '../storage/repositories/alert.repository.js';
import { CameraLogRepository } from '../storage/repositories/camera-log.repository.js';
import { CameraRepository } from '../storage/repositories/camera.repository.js';
import type { CameraAnalyzer } from '../vision/camera-health/types.js';
import { unitOfWork } from './unit-of-work.js';

export interface CameraMonitoring {
  uploads: CameraUploadService;
  cameras: CamerasService;
  alerts: AlertService;
  analysis: CameraAnalysisService;
  offline: OfflineSweepService;
}

export interface CameraMonitoringDeps {
  config: Pick<Config, 'camera' | 'images'>;
  db: Db;
  queue: SqlJobQueue;
  images: ImageService;
  licenses: LicenseService;
  accounts: AccountRepository;
  alertRepo: AlertRepository;
  notifications: Pick<Notifications, 'webhooks' | 'mail' | 'events'>;
  analyzer: CameraAnalyzer;
  metrics: Metrics;
}

/** Camera monitoring's services: uploads, cameras, analysis against the reference, alerts and
 * the offline sweep. */
export function wireCameraMonitoring(d: CameraMonitoringDeps): CameraMonitoring {
  const cameraRepo = new CameraRepository(d.db);
  const logRepo = new CameraLogRepository(d.db);
  const transaction = unitOfWork(d.db, d.queue);
  const alerts = new AlertService(d.alertRepo, d.accounts, d.images, transaction, { webhooks: d.notifications.webhooks, mail: d.notifications.mail }, {
    groupWindowSeconds: d.config.camera.alertGroupWindowSeconds,
  });
  return {
    uploads: new CameraUploadService(transaction, d.images, { intervalSeconds: d.config.camera.uploadIntervalSeconds, maxPixels: d.config.images.maxPixels }),
    cameras: new CamerasService(d.licenses, cameraRepo, logRepo, d.images, { maxPixels: d.config.images.maxPixels }),
    alerts,
    analysis: new CameraAnalysisService(cameraRepo, logRepo, d.images, alerts, d.analyzer, {
      obstructionConfirmations: d.config.camera.obstructionConfirmations,
      metrics: d.metrics,
      events: d.notifications.events,
    }),
    offline: new OfflineSweepService(cameraRepo, logRepo, alerts, { offlineAfterSeconds: d.config.camera.offlineAfterSeconds, events: d.notifications.events }),
  };
}
