import type { DashboardService } from './dashboard.service.js';
import type { LiveEvents } from './live-events.js';
import type { ThumbnailService } from './thumbnails.js';
import type { LoginLinkService } from './login-links.service.js';
import type { SessionService } from './session.service.js';

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

/** `vigil accounts set-password --email E [--password P | stdin]`: sets the dashboard password
 * (at least 10 characters) and ends the account's sessions. Returns `{id, email}`. */
export async function setAccountPassword(sessions: SessionService, input: { email: string; password: string }): Promise<{ id: number; email: string }> {
  const account = await sessions.setPassword(input.email, input.password);
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
