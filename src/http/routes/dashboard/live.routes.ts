import type { TypedApp } from '../../typed-app.js';
import type { DashboardService } from '../../../services/dashboard/dashboard.service.js';
import type { LiveEvents } from '../../../services/dashboard/live-events.js';
import type { SessionService } from '../../../services/dashboard/session.service.js';
import { liveCameras } from './cameras.view.js';
import { cameraPath, statusLabel, utc } from './format.js';
import { filterOf } from './filters.js';
import { readCookie, requireSession, SESSION_COOKIE, sessionOf } from './session.js';

/** A comment line this often keeps proxies from closing a quiet stream, and checks the session. */
const HEARTBEAT_MS = 20_000;

/** `GET /live/events`: server-sent events for the signed-in account only. `cameras` carries the
 * grid as `/live/cameras` returns it (for the page's filter), `alert` each new alert, `plates`
 * that new plate reads were stored (about how many: ids are shared by all accounts); the stream
 * ends with `signed-out` when the session does, and simply ends on server shutdown. */
export async function liveRoutes(app: TypedApp, opts: { dashboard: DashboardService; sessions: SessionService; live: LiveEvents; heartbeatMs?: number }) {
  const { dashboard, sessions, live } = opts;
  app.addHook('preClose', async () => live.close());

  app.get('/live/events', { preHandler: requireSession(sessions) }, async (request, reply) => {
    const accountId = sessionOf(request).account.id;
    const filter = filterOf(request);
    const cookie = readCookie(request, SESSION_COOKIE);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no', // nginx: pass events through as they come
      'x-content-type-options': 'nosniff',
    });
    const send = (event: string, data: unknown) => {
      if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };

    // One grid query at a time per stream; changes that arrive meanwhile fold into one more.
    let painting: Promise<void> | undefined;
    let again = false;
    const paint = (): void => {
      if (painting) {
        again = true;
        return;
      }
      painting = (async () => {
        do {
          again = false;
          send('cameras', liveCameras(await dashboard.overview(accountId, filter)));
        } while (again && !res.writableEnded);
      })()
        .catch((err) => request.log.error({ err }, 'live cameras update failed'))
        .finally(() => (painting = undefined));
    };

    let ended = false;
    let unsubscribe = () => {};
    const heartbeat = setInterval(() => {
      void sessions.resolve(cookie).then((session) => {
        if (session) return void (!res.writableEnded && res.write(': ping\n\n'));
        send('signed-out', {});
        end();
      }, () => {});
    }, opts.heartbeatMs ?? HEARTBEAT_MS);
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe();
      res.end();
    };
    unsubscribe = live.subscribe(accountId, (event) => {
      if (event.type === 'cameras') paint();
      else if (event.type === 'plates') send('plates', { count: event.count });
      else if (event.type === 'alert') {
        const a = event.alert;
        send('alert', {
          id: a.id, created_at: new Date(a.createdAt).toISOString(), when: utc(a.createdAt),
          cameras: a.cameras.map((c) => ({ name: c.name, serial: c.serial, status: c.status, label: statusLabel(c.status), href: cameraPath(a.licenseId, c.serial) })),
        });
      } else end();
    });
    request.raw.on('close', end);

    // The browser reconnects after 3 s if the stream drops; the first event is the grid as it is
    // now, so nothing that changed between the page load and this stream is missed.
    res.write('retry: 3000\n\n');
    paint();
  });
}
