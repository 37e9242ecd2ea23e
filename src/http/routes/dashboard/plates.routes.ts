import type { TypedApp } from '../../typed-app.js';
import type { SessionService } from '../../../services/dashboard/session.service.js';
import { errors } from '../../../services/errors.js';
import type { HistoryQuery, PlateHistoryService } from '../../../services/recognition/plate-history.service.js';
import type { WatchlistService } from '../../../services/recognition/watchlist.service.js';
import { toCsv } from '../../../domain/csv.js';
import { cursorToken, parseCursorToken } from '../../../storage/repositories/plate-read.repository.js';
import { platesPage, type PlateSearch, visitPage } from './plates.view.js';
import { pageContext, requireSession, sessionOf, textField } from './session.js';

const PAGE = 50;
const DAY_MS = 86_400_000;

function searchOf(query: unknown): PlateSearch {
  const day = textField(query, 'day') ?? '';
  return {
    plate: (textField(query, 'plate') ?? '').slice(0, 32),
    fuzzy: textField(query, 'fuzzy') === 'on',
    camera: (textField(query, 'camera_id') ?? '').slice(0, 128),
    region: (textField(query, 'region') ?? '').trim().toLowerCase().slice(0, 16),
    // A UTC day as the date input sends it; anything else is no filter.
    day: /^\d{4}-\d{2}-\d{2}$/.test(day) && Number.isFinite(Date.parse(`${day}T00:00:00Z`)) ? day : '',
  };
}

function queryOf(s: PlateSearch, limit: number): HistoryQuery {
  const from = s.day ? Date.parse(`${s.day}T00:00:00Z`) : undefined;
  return {
    plate: s.plate || undefined, fuzzy: s.fuzzy, cameraId: s.camera || undefined, region: s.region || undefined,
    from, until: from === undefined ? undefined : from + DAY_MS, limit,
  };
}

const params = (s: PlateSearch, extra: Record<string, string> = {}) =>
  new URLSearchParams(Object.entries({ plate: s.plate, fuzzy: s.fuzzy ? 'on' : '', camera_id: s.camera, region: s.region, day: s.day, ...extra }).filter(([, v]) => v)).toString();

/** `/plates`: the account's plate read history (search, fuzzy search, paging, CSV) and visits. */
export async function platePages(app: TypedApp, opts: { history: PlateHistoryService; watchlists: WatchlistService; sessions: SessionService }) {
  const preHandler = requireSession(opts.sessions);

  app.get('/plates', { preHandler }, async (request, reply) => {
    const search = searchOf(request.query);
    const accountId = sessionOf(request).account.id;
    const [page, listed] = await Promise.all([
      opts.history.list(accountId, { ...queryOf(search, PAGE), after: parseCursorToken(textField(request.query, 'cursor') ?? '') }),
      opts.watchlists.matcher(accountId),
    ]);
    const older = page.next ? `/plates?${params(search, { cursor: cursorToken(page.next) })}` : null;
    const reads = page.reads.map((r) => ({ ...r, lists: listed(r.plate).map((m) => m.watchlist) }));
    return reply.type('text/html').send(platesPage(pageContext(request), search, reads, older, `/plates.csv?${params(search)}`).value);
  });

  app.get('/plates.csv', { preHandler }, async (request, reply) => {
    const search = searchOf(request.query);
    const page = await opts.history.list(sessionOf(request).account.id, queryOf(search, 1000));
    const rows = page.reads.map((r) => [r.timestamp, r.camera_id, r.plate, r.score, r.region.code, r.visit_id]);
    return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="plates.csv"')
      .send(toCsv(['timestamp', 'camera_id', 'plate', 'score', 'region', 'visit_id'], rows));
  });

  app.get('/plates/visits/:id', { preHandler }, async (request, reply) => {
    const id = Number(textField(request.params, 'id'));
    const visit = Number.isSafeInteger(id) && id > 0 ? await opts.history.visit(sessionOf(request).account.id, id) : undefined;
    if (!visit) throw errors.notFound('Not found.');
    return reply.type('text/html').send(visitPage(pageContext(request), visit).value);
  });
}
