import type { Config } from '../config/config.js';
import type { SqlJobQueue } from '../queue/sql-job-queue.js';
import type { AlertService } from '../services/camera-monitoring/alerts.service.js';
import type { CamerasService } from '../services/camera-monitoring/cameras.service.js';
import { DashboardService } from '../services/dashboard/dashboard.service.js';
import type { Dashboard } from '../services/dashboard/index.js';
import { LiveEvents } from '../services/dashboard/live-events.js';
import { LoginLinkService } from '../services/dashboard/login-links.service.js';
import { SESSION_TTL_MS, SessionService } from '../services/dashboard/session.service.js';
import { ThumbnailService } from '../services/dashboard/thumbnails.js';
import type { ImageService } from '../services/images.service.js';
import type { LicenseService } from '../services/licenses.service.js';
import type { Notifications } from './notifications.js';
import type { RateLimiter } from '../services/rate-limiter.js';
import type { TokenService } from '../services/tokens.service.js';
import type { UsageService } from '../services/usage.service.js';
import type { BlobStore } from '../storage/blobs/blob-store.js';
import type { Db } from '../storage/db/database.js';
import type { AccountRepository } from '../storage/repositories/account.repository.js';
import { CameraRepository } from '../storage/repositories/camera.repository.js';
import { AccountTokenRepository, SessionRepository } from '../storage/repositories/dashboard.repository.js';
import { ImageRepository } from '../storage/repositories/image.repository.js';
import { LiveStateRepository } from '../storage/repositories/live-state.repository.js';
import { LoginLinkRepository } from '../storage/repositories/login-link.repository.js';

export interface DashboardDeps {
  config: Pick<Config, 'webhooks' | 'publicUrl' | 'images'>;
  db: Db;
  blobs: BlobStore;
  accounts: AccountRepository;
  rateLimiter: RateLimiter;
  licenses: LicenseService;
  cameras: CamerasService;
  alerts: AlertService;
  images: ImageService;
  tokens: TokenService;
  usage: UsageService;
  queue: SqlJobQueue;
  notifications: Pick<Notifications, 'webhooks' | 'mail'>;
}

/** The web dashboard's services: sessions and sign-in links, the pages' data, thumbnails and
 * live updates. */
export function wireDashboard(d: DashboardDeps): Dashboard {
  return {
    sessions: new SessionService(new SessionRepository(d.db), d.accounts, d.rateLimiter, { ttlMs: SESSION_TTL_MS }),
    dashboard: new DashboardService({
      licenses: d.licenses, cameras: d.cameras, cameraRepo: new CameraRepository(d.db), images: d.images, alerts: d.alerts,
      tokens: d.tokens, accountTokens: new AccountTokenRepository(d.db), webhooks: d.notifications.webhooks, usage: d.usage,
      queue: d.queue, webhookMaxAttempts: d.config.webhooks.maxAttempts,
    }),
    loginLinks: new LoginLinkService(new LoginLinkRepository(d.db), d.accounts, d.notifications.mail, d.rateLimiter, { publicUrl: d.config.publicUrl }),
    thumbnails: new ThumbnailService(new ImageRepository(d.db), d.blobs, { maxPixels: d.config.images.maxPixels }),
    live: new LiveEvents(new LiveStateRepository(d.db), {
      onError: (err) => console.error('[vigil] live updates failed:', err instanceof Error ? err.message : err),
    }),
  };
}
