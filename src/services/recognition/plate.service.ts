import type { AccountRow } from '../../storage/repositories/account.repository.js';
import { errors } from '../errors.js';
import type { ImageService } from '../images.service.js';
import type { EventPublisher, Mailer, MailMessage, WebhookNotifier } from '../notifications/ports.js';
import type { UsageService } from '../usage.service.js';
import type { Metrics } from '../metrics.js';
import { countedRecognition } from './counted-call.js';
import type { PlateHistoryService } from './plate-history.service.js';
import type { WatchlistMatch, WatchlistService } from './watchlist.service.js';
import type { Box, PlateReader, PlateReadOptions, PlateReadResult, PlateReading, VehicleOnly } from '../../vision/plates/plate.types.js';
import { RESULT_VERSION } from './ocr.service.js';

export interface PlateCall {
  image: Buffer;
  filename: string | undefined;
  cameraId: string | undefined;
  timestamp: string | undefined;
  options: PlateReadOptions;
  /** `detection_mode: vehicle`: results grouped by vehicle. */
  vehicleMode: boolean;
}

const ZERO_BOX: Box = { xmin: 0, ymin: 0, xmax: 0, ymax: 0 };
/** No make/model model can be had offline: the field keeps its shape and says so. */
const UNKNOWN_MAKE = [{ make: 'unknown', model: 'unknown', score: 0 }];

/** Plate reading for the hosted API (token, quota, 201) and the on-premise server (no token,
 * installation-wide call limit, 200). Both answer the shapes existing clients parse. */
export class PlateService {
  constructor(
    private readonly reader: PlateReader,
    private readonly usage: UsageService,
    private readonly images: ImageService,
    private readonly notify: { webhooks: WebhookNotifier; mailer: Mailer; events: EventPublisher },
    private readonly history: PlateHistoryService,
    private readonly watchlists: WatchlistService,
    private readonly options: { maxPixels: number; metrics?: Metrics },
  ) {}

  async read(account: AccountRow, call: PlateCall, style: 'hosted' | 'onprem'): Promise<PlateAnswer> {
    if (!account.features.includes('plate-reader')) throw errors.forbidden('Plate recognition is not enabled for this account.', 'feature_disabled');
    const { value: found, ms } = await countedRecognition(
      this.usage,
      { accountId: account.id, family: 'plate-reader', image: call.image, maxPixels: this.options.maxPixels },
      () => this.reader.read(call.image, call.options),
      this.options.metrics,
    );
    const now = new Date();
    const response = plateResponse(call, found, ms, style, now);
    const hooks = await this.notify.webhooks.hasActive(account.id, 'plate-reader');
    // One stored photo serves the webhook and the history alike.
    const stored = hooks || this.history.wantsImage(found.plates) ? await this.images.store(account.id, call.image, `accounts/${account.id}/plates`) : undefined;
    const stamped = call.timestamp ? Date.parse(call.timestamp) : NaN;
    const readAt = Number.isFinite(stamped) ? stamped : now.getTime();
    await this.history.record(account.id, { cameraId: call.cameraId, readAt }, found.plates, stored?.id, now.getTime());
    const fileUrl = stored ? this.images.url(stored.publicId) : null;
    if (hooks && stored) {
      await this.notify.webhooks.notify(account.id, 'plate-reader', 'image.done', { ...response, file_url: fileUrl }, { imageId: stored.id });
    }
    if (this.notify.events.enabled) {
      const results = found.plates.map((p) => ({ plate: p.plate, score: p.score, region: p.region, box: p.box }));
      await this.notify.events.publish(account.id, { kind: 'plate.read', cameraId: response.camera_id, body: { ...response, results, file_url: fileUrl } });
    }
    await this.tellWatchlists(account, response, found.plates, fileUrl);
    return response;
  }

  /** Per read plate on one of the account's watchlists: `watchlist.match` to its
   * plate-watchlist webhooks, and for alert and deny lists an e-mail to the account. */
  private async tellWatchlists(account: AccountRow, response: PlateAnswer, plates: readonly PlateReading[], fileUrl: string | null): Promise<void> {
    const read = plates.filter((x) => x.plate !== '');
    if (read.length === 0) return;
    const { webhooks, mailer, events } = this.notify;
    const hooks = await webhooks.hasActive(account.id, 'plate-watchlist');
    if (!hooks && !mailer.enabled && !events.enabled) return;
    const listed = await this.watchlists.matcher(account.id);
    for (const p of read) {
      for (const match of listed(p.plate)) {
        const event = { ...match, camera_id: response.camera_id, timestamp: response.timestamp, result: { box: p.box, plate: p.plate, region: p.region, score: p.score, dscore: p.dscore }, file_url: fileUrl };
        if (hooks) await webhooks.notify(account.id, 'plate-watchlist', 'watchlist.match', event);
        await events.publish(account.id, { kind: 'watchlist.match', tag: match.watchlist.tag, body: event });
        if (mailer.enabled && match.watchlist.tag !== 'allow') await mailer.enqueue(watchlistEmail(account.email, event));
      }
    }
  }
}

/** The e-mail of a read plate on an alert or deny list. */
function watchlistEmail(to: string, e: WatchlistMatch & { camera_id: string | null; timestamp: string; result: { plate: string; score: number }; file_url: string | null }): MailMessage {
  const plate = e.result.plate.toUpperCase();
  const where = e.camera_id ? ` at camera ${e.camera_id}` : '';
  const lines = [
    `${plate} was read${where} at ${e.timestamp} (score ${e.result.score.toFixed(2)}).`,
    `It is on the watchlist "${e.watchlist.name}" (${e.watchlist.tag})${e.exact ? '' : `, as ${e.entry.plate.toUpperCase()} one character off`}${e.entry.note ? `: ${e.entry.note}` : ''}.`,
    ...(e.file_url ? [`Photo: ${e.file_url}`] : []),
  ];
  return { to, subject: `Vigil: ${plate} on watchlist ${e.watchlist.name}`, text: lines.join('\n') };
}

/** The reader response existing clients parse (compatibility.md). */
export interface PlateAnswer {
  processing_time: number;
  results: Array<ReturnType<typeof plateResult>> | ReturnType<typeof vehicleModeResults>;
  filename: string;
  version: number;
  camera_id: string | null;
  timestamp: string;
}

/** The reader response, hosted or on-premise style. */
export function plateResponse(call: Omit<PlateCall, 'image'>, found: PlateReadResult, ms: number, style: 'hosted' | 'onprem', now = new Date()): PlateAnswer {
  return {
    processing_time: ms,
    results: call.vehicleMode ? vehicleModeResults(found, call.options.mmc) : found.plates.map((p) => plateResult(p, call.options.mmc)),
    filename: call.filename ?? 'upload',
    version: RESULT_VERSION,
    camera_id: call.cameraId ?? null,
    timestamp: style === 'hosted' ? hostedTimestamp(call.timestamp, now) : onpremTimestamp(call.timestamp, now),
  };
}

function plateResult(p: PlateReading, mmc: boolean) {
  return {
    box: p.box,
    plate: p.plate,
    region: p.region,
    score: p.score,
    candidates: p.candidates,
    dscore: p.dscore,
    vehicle: p.vehicle ?? { score: 0, type: 'Unknown', box: ZERO_BOX },
    ...(mmc ? { model_make: UNKNOWN_MAKE, color: p.color ?? [{ color: 'unknown', score: 0 }], orientation: p.orientation ?? [{ orientation: 'Unknown', score: 0 }] } : {}),
  };
}

function vehicleProps(v: { color?: VehicleOnly['color']; orientation?: VehicleOnly['orientation'] }) {
  return {
    make_model: UNKNOWN_MAKE,
    orientation: (v.orientation ?? [{ orientation: 'Unknown', score: 0 }]).slice(0, 3).map((o) => ({ value: o.orientation, score: o.score })),
    color: (v.color ?? [{ color: 'unknown', score: 0 }]).slice(0, 3).map((c) => ({ value: c.color, score: c.score })),
  };
}

function vehicleModeResults(found: PlateReadResult, _mmc: boolean) {
  const withPlates = found.plates.map((p) => ({
    plate: {
      type: 'Plate',
      score: p.dscore,
      box: p.box,
      props: {
        plate: [{ value: p.plate, score: p.score }, ...p.candidates.filter((c) => c.plate !== p.plate).map((c) => ({ value: c.plate, score: c.score }))].slice(0, 3),
        region: [{ value: p.region.code, score: p.region.score }],
      },
    },
    ...(p.vehicle ? { vehicle: { type: p.vehicle.type, score: p.vehicle.score, box: p.vehicle.box, props: vehicleProps(p) } } : {}),
  }));
  const alone = found.vehiclesWithoutPlate.map((v) => ({ vehicle: { type: v.vehicle.type, score: v.vehicle.score, box: v.vehicle.box, props: vehicleProps(v) } }));
  return [...withPlates, ...alone];
}

/** `2020-10-12T16:17:27.574008Z`: the hosted service's microsecond ISO form. */
function hostedTimestamp(given: string | undefined, now: Date): string {
  const iso = given ?? now.toISOString();
  return iso.replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** `2025-01-31 09:54:50.792060`: the on-premise server's form, space separated, no zone. */
function onpremTimestamp(given: string | undefined, now: Date): string {
  return hostedTimestamp(given, now).replace('T', ' ').replace(/Z$/, '');
}
