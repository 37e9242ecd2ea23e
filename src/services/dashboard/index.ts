import type { Container } from '../../container.js';
import { AccountRepository } from '../../storage/repositories/account.repository.js';
import { CameraRepository } from '../../storage/repositories/camera.repository.js';
import { ImageRepository } from '../../storage/repositories/image.repository.js';
import { AccountTokenRepository, SessionRepository } from '../../storage/repositories/dashboard.repository.js';
import { LiveStateRepository } from '../../storage/repositories/live-state.repository.js';
import { LoginLinkRepository } from '../../storage/repositories/login-link.repository.js';
import { DashboardService } from './dashboard.service.js';
import { LiveEvents } from './live-events.js';
import { ThumbnailService } from './thumbnails.js';
import { LoginLinkService } from './login-links.service.js';
import { SessionService, SESSION_TTL_MS } from './session.service.js';

export { DashboardService } from './dashboard.service.js';
export { SessionService, type DashboardSession } from './session.service.js';
export { LoginLinkService } from './login-links.service.js';
export { LiveEvents } from './live-events.js';

export interface Dashboard {
  sessions: SessionService;
  dashboard: DashboardService;
  loginLinks: LoginLinkService;
  live: LiveEvents;
  thumbnails: ThumbnailService;
}

/** Builds the dashboard's services from the container (the container itself stays unchanged). */
export function createDashboard(c: Container, options: { sessionTtlMs?: number; liveIntervalMs?: number } = {}): Dashboard {
  const accounts = new AccountRepository(c.db);
  return {
    sessions: new SessionService(new SessionRepository(c.db), accounts, c.rateLimiter, { ttlMs: options.sessionTtlMs ?? SESSION_TTL_MS }),
    dashboard: new DashboardService({
      licenses: c.licenses, cameras: c.camera.cameras, cameraRepo: new CameraRepository(c.db), images: c.images, alerts: c.camera.alerts,
      tokens: c.tokens, accountTokens: new AccountTokenRepository(c.db), webhooks: c.notifications.webhooks, usage: c.usage,
      queue: c.queue, webhookMaxAttempts: c.config.webhooks.maxAttempts,
    }),
    loginLinks: new LoginLinkService(new LoginLinkRepository(c.db), accounts, c.notifications.mail, c.rateLimiter, { publicUrl: c.config.publicUrl }),
    thumbnails: new ThumbnailService(new ImageRepository(c.db), c.blobs, { maxPixels: c.config.images.maxPixels }),
    live: new LiveEvents(new LiveStateRepository(c.db), {
      intervalMs: options.liveIntervalMs, onError: (err) => console.error('[vigil] live updates failed:', err instanceof Error ? err.message : err),
    }),
  };
}

/** `vigil accounts set-password --email E [--password P | stdin]`: sets the dashboard password
 * (at least 10 characters) and ends the account's sessions. Returns `{id, email}`. */
export async function setAccountPassword(c: Pick<Container, 'db' | 'rateLimiter'>, input: { email: string; password: string }): Promise<{ id: number; email: string }> {
  const accounts = new AccountRepository(c.db);
  const account = await new SessionService(new SessionRepository(c.db), accounts, c.rateLimiter).setPassword(input.email, input.password);
  return { id: account.id, email: account.email };
}

/** Reads a password piped on stdin (first line, without its line break). */
export async function readPasswordFrom(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += chunk.toString();
    if (text.length > 4096) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}
