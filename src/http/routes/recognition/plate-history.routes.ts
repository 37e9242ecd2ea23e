import { Type } from 'typebox';
import { errors } from '../../../services/errors.js';
import type { RateLimiter } from '../../../services/rate-limiter.js';
import type { HistoryQuery, HistoryRead, PlateHistoryService } from '../../../services/recognition/plate-history.service.js';
import { cursorToken, parseCursorToken, type ReadCursor } from '../../../storage/repositories/plate-read.repository.js';
import type { TypedApp } from '../../typed-app.js';
import { toCsv } from '../../../domain/csv.js';
import { ErrorDetail, parseCameraId, parseTimestamp, plateAccountOf, throttlePerToken, useRecognitionErrors } from './recognition-params.js';

export interface PlateHistoryRouteOptions {
  history: PlateHistoryService;
  limiter: RateLimiter;
  ratePerSecond: number;
}

const Filters = {
  plate: Type.Optional(Type.String({ maxLength: 32, description: 'A plate; separators and case do not matter' })),
  fuzzy: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')], { description: 'true: also look-alikes (O/0, B/8, ...) and plates one character off' })),
  camera_id: Type.Optional(Type.String({ maxLength: 128 })),
  region: Type.Optional(Type.String({ maxLength: 16, description: 'Region code as read: us, us-ca, br, ...' })),
  start: Type.Optional(Type.String({ description: 'ISO 8601 UTC, inclusive' })),
  end: Type.Optional(Type.String({ description: 'ISO 8601 UTC, exclusive' })),
};

/** A page of a list: its size and where it starts (the `next` URL of the page before). */
const Paging = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  cursor: Type.Optional(Type.String({ maxLength: 64 })),
};

const Box = Type.Object({ xmin: Type.Number(), ymin: Type.Number(), xmax: Type.Number(), ymax: Type.Number() });

const Read = Type.Object({
  id: Type.Integer(),
  visit_id: Type.Union([Type.Integer(), Type.Null()], { description: 'the visit the read belongs to' }),
  camera_id: Type.Union([Type.String(), Type.Null()]),
  timestamp: Type.String({ description: 'the call\'s timestamp, else when it was read' }),
  plate: Type.String(),
  score: Type.Number(),
  dscore: Type.Number(),
  region: Type.Object({ code: Type.String() }),
  candidates: Type.Array(Type.Object({ plate: Type.String(), score: Type.Number() })),
  box: Box,
  vehicle: Type.Union([Type.Object({ type: Type.String(), score: Type.Number(), box: Box }), Type.Null()], { description: 'where the call found the vehicle (mmc, strict detection)' }),
  image_url: Type.Union([Type.String(), Type.Null()], { description: 'with PLATE_HISTORY_IMAGES, or where a webhook stored the photo' }),
}, { additionalProperties: true });

const ReadPage = Type.Object({
  results: Type.Array(Read),
  next: Type.Union([Type.String(), Type.Null()], { description: 'the next page\'s URL, null on the last page' }),
});

const Visit = Type.Object({
  id: Type.Integer(),
  camera_id: Type.Union([Type.String(), Type.Null()]),
  plate: Type.String({ description: 'the best read of the visit' }),
  score: Type.Number(),
  region: Type.Object({ code: Type.String() }),
  first_seen: Type.String(),
  last_seen: Type.String(),
  reads: Type.Integer(),
  image_url: Type.Union([Type.String(), Type.Null()], { description: 'the photo of the best read, where one was stored' }),
}, { additionalProperties: true });

const VisitPage = Type.Object({ results: Type.Array(Visit), next: Type.Union([Type.String(), Type.Null()]) });
const VisitWithReads = Type.Intersect([Visit, Type.Object({ results: Type.Array(Read) })]);

type FilterQuery = { plate?: string; fuzzy?: string; camera_id?: string; region?: string; start?: string; end?: string };

function decodeCursor(value: string): ReadCursor {
  const cursor = parseCursorToken(value);
  if (!cursor) throw errors.badRequest('Invalid cursor; use the `next` URL of the previous page.', 'invalid_cursor');
  return cursor;
}

/** The URL of the page after `next`, or null. */
function nextUrl(requestUrl: string, next: ReadCursor | null): string | null {
  if (!next) return null;
  const url = new URL(requestUrl, 'http://vigil');
  url.searchParams.set('cursor', cursorToken(next));
  return `${url.pathname}${url.search}`;
}

function historyQuery(q: FilterQuery, limit: number, cursor?: string): HistoryQuery {
  const at = (v: string | undefined) => (v === undefined ? undefined : Date.parse(parseTimestamp(v)!));
  return {
    plate: q.plate, fuzzy: q.fuzzy === 'true' || q.fuzzy === '1', cameraId: parseCameraId(q.camera_id), region: q.region,
    from: at(q.start), until: at(q.end), after: cursor === undefined ? undefined : decodeCursor(cursor), limit,
  };
}


const CSV_COLUMNS = ['id', 'timestamp', 'camera_id', 'plate', 'score', 'region', 'dscore', 'xmin', 'ymin', 'xmax', 'ymax', 'vehicle_type', 'image_url'];
const csvRow = (r: HistoryRead) => [r.id, r.timestamp, r.camera_id, r.plate, r.score, r.region.code, r.dscore, r.box.xmin, r.box.ymin, r.box.xmax, r.box.ymax, r.vehicle?.type ?? '', r.image_url];

/** Most rows one CSV export holds: narrow the filters for more. */
export const CSV_MAX_ROWS = 100_000;

/** GET /v1/plate-reads/, /v1/plate-reads.csv and /v1/plate-visits/: the account's plate read
 * history and the visits it forms. */
export async function plateHistoryRoutes(app: TypedApp, opts: PlateHistoryRouteOptions) {
  useRecognitionErrors(app);
  const throttle = throttlePerToken(opts.limiter, 'plate-reads', opts.ratePerSecond);
  readRoutes(app, opts.history, throttle);
  visitRoutes(app, opts.history, throttle);
}

type Throttle = ReturnType<typeof throttlePerToken>;

/** The reads, a page at a time or as CSV. */
function readRoutes(app: TypedApp, history: PlateHistoryService, throttle: Throttle) {
  app.get('/plate-reads/', {
    onRequest: [app.requireAccount, throttle],
    schema: {
      summary: 'Plate reads, newest first (Vigil extension)',
      tags: ['plate-recognition'],
      security: [{ token: [] }],
      querystring: Type.Object({ ...Filters, ...Paging }),
      response: { 200: ReadPage, 400: ErrorDetail, 401: ErrorDetail, 403: ErrorDetail, 429: ErrorDetail },
    },
  }, async (request) => {
    const account = plateAccountOf(request);
    const { limit = 100, cursor, ...filters } = request.query;
    const page = await history.list(account.id, historyQuery(filters, limit, cursor));
    return { results: page.reads, next: nextUrl(request.url, page.next) };
  });

  app.get('/plate-reads.csv', {
    onRequest: [app.requireAccount, throttle],
    schema: {
      summary: `Plate reads as CSV, newest first, at most ${CSV_MAX_ROWS} rows (Vigil extension)`,
      tags: ['plate-recognition'],
      security: [{ token: [] }],
      querystring: Type.Object(Filters),
      produces: ['text/csv'],
      response: { 200: Type.String({ description: 'CSV, a header row first' }), 400: ErrorDetail, 401: ErrorDetail, 403: ErrorDetail, 429: ErrorDetail },
    },
  }, async (request, reply) => {
    const account = plateAccountOf(request);
    const query = historyQuery(request.query, 1000);
    const rows: HistoryRead[] = [];
    for (;;) {
      const page = await history.list(account.id, query);
      rows.push(...page.reads);
      if (!page.next || rows.length >= CSV_MAX_ROWS) break;
      query.after = page.next;
    }
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="plate-reads.csv"')
      .send(toCsv(CSV_COLUMNS, rows.slice(0, CSV_MAX_ROWS).map(csvRow)));
  });
}

/** The visits reads form, and one visit with its reads. */
function visitRoutes(app: TypedApp, history: PlateHistoryService, throttle: Throttle) {
  app.get('/plate-visits/', {
    onRequest: [app.requireAccount, throttle],
    schema: {
      summary: 'Visits: reads of one plate at one camera within PLATE_VISIT_GAP_SECONDS, the latest first (Vigil extension)',
      tags: ['plate-recognition'],
      security: [{ token: [] }],
      querystring: Type.Object({
        plate: Filters.plate, camera_id: Filters.camera_id, start: Filters.start, end: Filters.end, ...Paging,
      }),
      response: { 200: VisitPage, 400: ErrorDetail, 401: ErrorDetail, 403: ErrorDetail, 429: ErrorDetail },
    },
  }, async (request) => {
    const account = plateAccountOf(request);
    const { limit = 100, cursor, ...filters } = request.query;
    const page = await history.listVisits(account.id, historyQuery(filters, limit, cursor));
    return { results: page.visits, next: nextUrl(request.url, page.next) };
  });

  app.get('/plate-visits/:id/', {
    onRequest: [app.requireAccount, throttle],
    schema: {
      summary: 'One visit and its reads (Vigil extension)',
      tags: ['plate-recognition'],
      security: [{ token: [] }],
      params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
      response: { 200: VisitWithReads, 401: ErrorDetail, 403: ErrorDetail, 404: ErrorDetail, 429: ErrorDetail },
    },
  }, async (request) => {
    const account = plateAccountOf(request);
    const visit = await history.visit(account.id, request.params.id);
    if (!visit) throw errors.notFound('No such visit.', 'not_found');
    return visit;
  });
}
