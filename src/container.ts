import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Config } from './config/config.js';
import type { JobHandlers } from './queue/jobs.js';
import { jobQueueStats, type JobRunner } from './queue/job-runner.js';
import { SqlJobQueue } from './queue/sql-job-queue.js';
import { PromMetrics } from './services/metrics.js';
import type { RateLimiter } from './services/rate-limiter.js';
import type { Db } from './storage/db/database.js';
import { wireCameraMonitoring, type CameraMonitoring } from './wiring/camera-monitoring.js';
import { wireDashboard } from './wiring/dashboard.js';
import type { Dashboard } from './services/dashboard/index.js';
import { backgroundWorkers, wireJobs } from './wiring/jobs.js';
import { type Recognition, wireRecognition } from './wiring/recognition.js';
import { unitOfWork } from './wiring/unit-of-work.js';
import { openBlobStore, openMigratedDatabase } from './wiring/store.js';
import type { BlobStore } from './storage/blobs/blob-store.js';
import { AccountRepository } from './storage/repositories/account.repository.js';
import { ImageRepository } from './storage/repositories/image.repository.js';
import { LicenseRepository } from './storage/repositories/license.repository.js';
import { SettingsRepository } from './storage/repositories/settings.repository.js';
import { TokenRepository } from './storage/repositories/token.repository.js';
import { AccountService } from './services/accounts.service.js';
import { ImageService } from './services/images.service.js';
import { LicenseService } from './services/licenses.service.js';
import { TokenService } from './services/tokens.service.js';
import { createNotifications, type Notifications } from './wiring/notifications.js';
import type { DeliveryRef } from './services/notifications/ports.js';
import { AlertRepository } from './storage/repositories/alert.repository.js';
import { PooledCameraAnalyzer } from './vision/runtime/camera-analyzer.pool.js';
import type { CameraAnalyzer } from './vision/camera-health/types.js';
import type { TextRecognizer } from './vision/ocr/ocr.types.js';
import { UsageService } from './services/usage.service.js';
import { UsageRepository } from './storage/repositories/usage.repository.js';
import type { PlateReader } from './vision/plates/plate.types.js';

/** Everything a process needs, wired once from the config. Each service gets only what it uses. */
export interface Container {
  config: Config;
  db: Db;
  accounts: AccountService;
  tokens: TokenService;
  licenses: LicenseService;
  images: ImageService;
  blobs: BlobStore;
  queue: SqlJobQueue;
  /** SQL leases embedded; BullMQ workers (the jobs table as outbox) with REDIS_URL. */
  runner: JobRunner;
  rateLimiter: RateLimiter;
  metrics: PromMetrics;
  camera: CameraMonitoring;
  /** The web dashboard's services. */
  dashboard: Dashboard;
  notifications: Notifications;
  usage: UsageService;
  ocr: Recognition['ocr'];
  plates: Recognition['plates'];
  plateHistory: Recognition['history'];
  watchlists: Recognition['watchlists'];
  onpremAccount: Recognition['onpremAccount'];
  /** Starts the background side: job runner and the offline scheduler (roles all, worker). */
  startWorkers(): void;
  /** Named readiness checks for /readyz; each throws when its part is not ready. */
  readiness: Map<string, () => Promise<void>>;
  close(): Promise<void>;
}

export { UnmigratedSchemaError } from './wiring/store.js';
export { ONPREM_EMAIL } from './wiring/recognition.js';

export interface ContainerOverrides {
  /** Tests and benchmarks may swap the analyzer (e.g. to make it fail on purpose). */
  analyzer?: CameraAnalyzer;
  recognizer?: TextRecognizer;
  plateReader?: PlateReader;
  /** Tests swap the blob store to inject storage faults (a full disk). */
  blobs?: BlobStore;
  /** Delay before job retry number n (tests shorten it). */
  retryBackoff?: (attempt: number) => number;
}

/** The composition root: the only place that builds services, repositories and adapters, each
 * feature through its wiring function (src/wiring/). */
export async function createContainer(config: Config, overrides: ContainerOverrides = {}): Promise<Container> {
  const db = await openMigratedDatabase(config);
  const accountRepo = new AccountRepository(db);
  const settings = new SettingsRepository(db);
  const tokens = new TokenService(new TokenRepository(db), accountRepo);
  const secret = config.images.urlSecret ?? (await settings.getOrCreate('image_url_secret', () => randomBytes(32).toString('base64url')));
  const blobs = overrides.blobs ?? openBlobStore(config.blobs);
  // What operators page on (GET /metrics): services report to it, the HTTP plugin adds to it.
  const metrics = new PromMetrics();
  metrics.watchJobs(() => jobQueueStats(db));

  const images = new ImageService(new ImageRepository(db), blobs, {
    publicUrl: config.publicUrl, secret, ttlSeconds: config.images.urlTtlSeconds, maxPixels: config.images.maxPixels,
  });
  const licenses = new LicenseService(new LicenseRepository(db), images);
  const queue = new SqlJobQueue(db);
  const alertRepo = new AlertRepository(db);
  const usage = new UsageService(new UsageRepository(db));
  const notifications = createNotifications({
    config, db, queue, images, accounts: accountRepo, metrics,
    // A delivered alert is marked sent (by webhook or e-mail, whichever arrives first).
    onDelivered: async (ref: DeliveryRef) => { if (ref.kind === 'alert') await alertRepo.markSent(ref.id); },
  });
  const analyzer = overrides.analyzer ?? new PooledCameraAnalyzer(config.workers.threads, config.vision);
  const camera = wireCameraMonitoring({ config, db, queue, images, licenses, accounts: accountRepo, alertRepo, notifications, analyzer, metrics });
  const recognition = wireRecognition({
    config, db, transaction: unitOfWork(db, queue), usage, images, webhooks: notifications.webhooks, mailer: notifications.mail, events: notifications.events, accounts: accountRepo, metrics,
    recognizer: overrides.recognizer, plateReader: overrides.plateReader,
  });
  const handlers: JobHandlers = {
    'camera.analyze': {
      run: (p) => camera.analysis.run(p),
      onRetry: (p, err) => camera.analysis.markPendingRetry(p, err),
      onGiveUp: (p, err) => camera.analysis.markGivenUp(p, err),
    },
    'alert.dispatch': { run: (p) => camera.alerts.dispatch(p.alertId) },
    ...notifications.handlers,
  };
  const jobs = await wireJobs({ config, db, queue, handlers, settings, metrics, retryBackoff: overrides.retryBackoff });
  const workers = backgroundWorkers({ config, runner: jobs.runner, offline: camera.offline, sweepLeader: jobs.sweepLeader });
  const readiness = new Map<string, () => Promise<void>>([['database', async () => void (await sql`select 1`.execute(db))], ...jobs.readiness]);

  return {
    config,
    db,
    tokens,
    accounts: new AccountService(accountRepo, tokens, images),
    licenses,
    images,
    blobs,
    queue,
    runner: jobs.runner,
    rateLimiter: jobs.rateLimiter,
    metrics,
    notifications,
    usage,
    ocr: recognition.ocr,
    plates: recognition.plates,
    plateHistory: recognition.history,
    watchlists: recognition.watchlists,
    onpremAccount: recognition.onpremAccount,
    camera,
    dashboard: wireDashboard({
      config, db, blobs, accounts: accountRepo, rateLimiter: jobs.rateLimiter, licenses, cameras: camera.cameras, alerts: camera.alerts,
      images, tokens, usage, queue, notifications,
    }),
    startWorkers: () => workers.start(),
    readiness,
    async close() {
      // The reverse of building: no job runs while what it needs closes.
      await workers.stop();
      await jobs.close();
      await recognition.close();
      if (analyzer instanceof PooledCameraAnalyzer) await analyzer.close();
      await notifications.close();
      await db.destroy();
    },
  };
}
