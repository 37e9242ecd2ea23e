import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Config } from './config/config.js';
import { S3Client } from '@aws-sdk/client-s3';
import type { BlobStore } from './storage/blobs/blob-store.js';
import { FsBlobStore } from './storage/blobs/fs-blob-store.js';
import { parseS3Url, S3BlobStore } from './storage/blobs/s3-blob-store.js';
import { migrateToLatest, openDatabase, pendingMigrations, type Db } from './storage/db/database.js';
import { AccountRepository } from './storage/repositories/account.repository.js';
import { ImageRepository } from './storage/repositories/image.repository.js';
import { LicenseRepository } from './storage/repositories/license.repository.js';
import { SettingsRepository } from './storage/repositories/settings.repository.js';
import { TokenRepository } from './storage/repositories/token.repository.js';
import { AccountService } from './services/accounts.service.js';
import { ImageService } from './services/images.service.js';
import { LicenseService } from './services/licenses.service.js';
import { TokenService } from './services/tokens.service.js';
import { AlertService } from './services/camera-monitoring/alerts.service.js';
import { CameraAnalysisService, type AnalyzeJob } from './services/camera-monitoring/analysis.service.js';
import { CamerasService } from './services/camera-monitoring/cameras.service.js';
import { OfflineSweepService } from './services/camera-monitoring/offline.service.js';
import { CameraUploadService } from './services/camera-monitoring/upload.service.js';
import { createNotifications } from './services/notifications/index.js';
import type { DeliveryRef } from './services/notifications/ports.js';
import { Redis } from 'ioredis';
import { MemoryRateLimiter, type RateLimiter } from './services/rate-limiter.js';
import { RedisRateLimiter } from './services/redis-rate-limiter.js';
import { assertHandlersComplete, type JobHandlers } from './queue/jobs.js';
import { jobQueueStats, type JobRunner } from './queue/job-runner.js';
import { countingLimiter, PromMetrics } from './services/metrics.js';
import { SqlJobQueue, SqlJobRunner } from './queue/sql-job-queue.js';
import { BullJobRunner } from './queue/bullmq-job-runner.js';
import { LeaderLease } from './queue/leader-lease.js';
import { AlertRepository } from './storage/repositories/alert.repository.js';
import { CameraLogRepository } from './storage/repositories/camera-log.repository.js';
import { CameraRepository } from './storage/repositories/camera.repository.js';
import { PooledCameraAnalyzer } from './vision/runtime/camera-analyzer.pool.js';
import type { CameraAnalyzer } from './vision/camera-health/types.js';
import { OcrService } from './services/recognition/ocr.service.js';
import type { TextRecognizer } from './vision/ocr/ocr.types.js';
import { UsageService } from './services/usage.service.js';
import { UsageRepository } from './storage/repositories/usage.repository.js';
import { PooledTextRecognizer } from './vision/runtime/text-recognizer.pool.js';
import { PooledPlateReader } from './vision/runtime/plate-reader.pool.js';
import { PlateService } from './services/recognition/plate.service.js';
import type { PlateReader } from './vision/plates/plate.types.js';
import type { AccountRow } from './storage/repositories/account.repository.js';

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
  camera: {
    uploads: CameraUploadService;
    cameras: CamerasService;
    alerts: AlertService;
    analysis: CameraAnalysisService;
    offline: OfflineSweepService;
  };
  notifications: ReturnType<typeof createNotifications>;
  usage: UsageService;
  ocr: OcrService;
  plates: PlateService;
  /** The account every on-premise call acts as (created on first use). */
  onpremAccount(): Promise<AccountRow>;
  /** Starts the background side: job runner and the offline scheduler (roles all, worker). */
  startWorkers(): void;
  /** Named readiness checks for /readyz; each throws when its part is not ready. */
  readiness: Map<string, () => Promise<void>>;
  close(): Promise<void>;
}

export class UnmigratedSchemaError extends Error {
  override name = 'UnmigratedSchemaError';
}

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

export async function createContainer(config: Config, overrides: ContainerOverrides = {}): Promise<Container> {
  const db = openDatabase(config.database);
  try {
    if (config.runMigrations) await migrateToLatest(db);
    const pending = await pendingMigrations(db);
    if (pending.length > 0) {
      throw new UnmigratedSchemaError(`The database schema is not migrated (pending: ${pending.join(', ')}). Run \`vigil migrate\` first.`);
    }
  } catch (err) {
    await db.destroy();
    throw err;
  }

  const accountRepo = new AccountRepository(db);
  const settings = new SettingsRepository(db);
  const tokens = new TokenService(new TokenRepository(db), accountRepo);
  const secret = config.images.urlSecret ?? (await settings.getOrCreate('image_url_secret', () => randomBytes(32).toString('base64url')));
  const blobs = overrides.blobs ?? openBlobStore(config.blobs);

  // What operators page on (GET /metrics): services report to it, the HTTP plugin adds to it.
  const metrics = new PromMetrics();
  metrics.watchJobs(() => jobQueueStats(db));
  const readiness = new Map<string, () => Promise<void>>([['database', async () => void (await sql`select 1`.execute(db))]]);
  const closers: Array<() => Promise<void>> = [];

  const images = new ImageService(new ImageRepository(db), blobs, {
    publicUrl: config.publicUrl, secret, ttlSeconds: config.images.urlTtlSeconds, maxPixels: config.images.maxPixels,
  });
  const licenses = new LicenseService(new LicenseRepository(db));
  const queue = new SqlJobQueue(db);
  const cameraRepo = new CameraRepository(db);
  const logRepo = new CameraLogRepository(db);
  const alertRepo = new AlertRepository(db);

  // Notifications mark alerts sent through this callback; alerts are built below.
  let alerts: AlertService | undefined;
  const notifications = createNotifications({
    metrics,
    config, db, queue, images, accounts: accountRepo,
    onDelivered: async (ref: DeliveryRef) => { if (ref.kind === 'alert') await alerts?.markSent(ref.id); },
  });
  alerts = new AlertService(alertRepo, accountRepo, images, db, queue, { webhooks: notifications.webhooks, mail: notifications.mail }, {
    groupWindowSeconds: config.camera.alertGroupWindowSeconds,
  });
  closers.push(async () => notifications.close());
  const analyzer = overrides.analyzer ?? new PooledCameraAnalyzer(config.workers.threads, config.vision);
  if (analyzer instanceof PooledCameraAnalyzer) closers.push(() => analyzer.close());
  const analysis = new CameraAnalysisService(cameraRepo, logRepo, images, alerts, analyzer, {
    obstructionConfirmations: config.camera.obstructionConfirmations,
    metrics,
  });
  const offline = new OfflineSweepService(cameraRepo, logRepo, alerts, { offlineAfterSeconds: config.camera.offlineAfterSeconds });
  const alertService = alerts;
  const usage = new UsageService(new UsageRepository(db));
  const recognizer = overrides.recognizer ?? new PooledTextRecognizer(config.workers.threads, config.vision);
  if (recognizer instanceof PooledTextRecognizer) closers.push(() => recognizer.close());
  const ocr = new OcrService(recognizer, usage, images, notifications.webhooks, { maxPixels: config.images.maxPixels, metrics });
  const plateReader = overrides.plateReader ?? new PooledPlateReader(config.workers.threads, config.vision);
  if (plateReader instanceof PooledPlateReader) closers.push(() => plateReader.close());
  const plates = new PlateService(plateReader, usage, images, notifications.webhooks, { maxPixels: config.images.maxPixels, metrics });
  let onprem: Promise<AccountRow> | undefined;
  const onpremAccount = () => (onprem ??= ensureOnpremAccount(accountRepo, usage, config.onprem.maxCalls));

  const handlers: JobHandlers = {
    'camera.analyze': {
      run: (p) => analysis.run(p),
      onRetry: (p, err) => analysis.markPendingRetry(p, err),
      onGiveUp: (p, err) => analysis.markGivenUp(p, err),
    },
    'alert.dispatch': { run: (p) => alertService.dispatch(p.alertId) },
    ...notifications.handlers,
  };
  assertHandlersComplete(handlers);
  const runnerOptions = {
    concurrency: config.workers.threads + 2,
    leaseMs: config.workers.jobLeaseSeconds * 1000,
    backoff: overrides.retryBackoff,
    onError: (err: unknown, kind: string) => console.error(`[vigil] job ${kind} failed:`, err instanceof Error ? err.message : err),
  };
  let runner: JobRunner;
  /** With Redis, which worker process runs the periodic sweep (one per cluster). */
  let sweepLeader: ((ttlMs: number) => LeaderLease) | undefined;
  // With Redis, rate limits are shared by every API process and jobs run on BullMQ; embedded,
  // limits live in memory and jobs are claimed from the jobs table.
  let rateLimiter: RateLimiter = countingLimiter(new MemoryRateLimiter(), metrics);
  if (config.redisUrl) {
    const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2 });
    rateLimiter = countingLimiter(new RedisRateLimiter(redis), metrics);
    readiness.set('redis', async () => void (await redis.ping()));
    closers.push(async () => redis.disconnect());
    // One BullMQ queue per installation (its database), so installations may share a Redis.
    const queueName = await settings.getOrCreate('job_queue_name', () => `jobs-${randomBytes(6).toString('hex')}`);
    const bull = new BullJobRunner(db, handlers, { ...runnerOptions, redisUrl: config.redisUrl, queueName });
    // The process that enqueued relays its own jobs as soon as they commit (any role); workers
    // also poll the outbox for rows whose producer died before relaying them.
    queue.onEnqueued(() => bull.relay.wake());
    closers.push(() => bull.close());
    runner = bull;
    sweepLeader = (ttlMs) => new LeaderLease(redis, `vigil:${queueName}:sweep-leader`, ttlMs);
  } else {
    runner = new SqlJobRunner(db, queue, handlers, runnerOptions);
  }

  let sweepTimer: NodeJS.Timeout | undefined;
  let started = false;

  return {
    config,
    db,
    tokens,
    accounts: new AccountService(accountRepo, tokens),
    licenses,
    images,
    blobs,
    queue,
    runner,
    rateLimiter,
    metrics,
    notifications,
    usage,
    ocr,
    plates,
    onpremAccount,
    camera: {
      uploads: new CameraUploadService(db, images, queue, { intervalSeconds: config.camera.uploadIntervalSeconds, maxPixels: config.images.maxPixels }),
      cameras: new CamerasService(licenses, cameraRepo, logRepo, images, { maxPixels: config.images.maxPixels }),
      alerts: alertService,
      analysis,
      offline,
    },
    startWorkers() {
      if (started) return;
      started = true;
      runner.start();
      // Check for silent cameras several times per offline period (at most once a minute).
      const every = Math.min(60_000, Math.max(1000, (config.camera.offlineAfterSeconds * 1000) / 4));
      // Every worker may sweep safely (a camera is marked by one conditional update); with Redis
      // one leader does it, and another takes over within three periods if it dies.
      const leader = sweepLeader?.(every * 3);
      sweepTimer = setInterval(() => {
        void (async () => {
          if (leader && !(await leader.acquire())) return;
          await offline.sweep().catch((err) => console.error('[vigil] offline sweep failed:', err));
          await runner.purgeFinished(Date.now() - 86_400_000).catch((err) => console.error('[vigil] job purge failed:', err));
        })().catch((err) => console.error('[vigil] sweep leader election failed:', err instanceof Error ? err.message : err));
      }, every);
      sweepTimer.unref();
      closers.push(async () => {
        clearInterval(sweepTimer);
        await leader?.release().catch(() => {});
        await runner.stop();
      });
    },
    readiness,
    async close() {
      for (const close of closers.reverse()) await close();
      await db.destroy();
    },
  };
}

/** On-premise calls have no token: they all count against one local account, whose monthly
 * allowance is MAX_CALLS (0: no limit). Its plate-reader webhooks are the installation's. */
export const ONPREM_EMAIL = 'onprem@localhost';

async function ensureOnpremAccount(accounts: AccountRepository, usage: UsageService, maxCalls: number): Promise<AccountRow> {
  const account = (await accounts.findByEmail(ONPREM_EMAIL)) ?? (await accounts.create(ONPREM_EMAIL, ['plate-reader']).catch(async () => (await accounts.findByEmail(ONPREM_EMAIL))!));
  await usage.setTotalCalls(account.id, 'plate-reader', maxCalls > 0 ? maxCalls : 2_147_483_647);
  return account;
}

function openBlobStore(blobs: Config['blobs']): BlobStore {
  if (blobs.kind === 'fs') return new FsBlobStore(blobs.root);
  // Credentials come from the standard AWS variables or profile; a custom endpoint (MinIO and
  // other S3-compatible stores) is addressed path-style.
  const client = new S3Client({ region: blobs.region, ...(blobs.endpoint ? { endpoint: blobs.endpoint, forcePathStyle: true } : {}) });
  return new S3BlobStore(client, parseS3Url(blobs.url));
}
