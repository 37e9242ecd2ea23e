import { foldPlate, normalizePlate, plateKeys } from '../../domain/plates/plate-keys.js';
import type { ListedRead, PlateReadFilter, PlateReadRepository, ReadCursor } from '../../storage/repositories/plate-read.repository.js';
import type { PlateVisitRepository, PlateVisitRow } from '../../storage/repositories/plate-visit.repository.js';
import type { TransactionRepositories } from '../unit-of-work.js';
import type { EventPublisher, WebhookNotifier } from '../notifications/ports.js';
import type { PlateReading } from '../../vision/plates/plate.types.js';
import type { ImageService } from '../images.service.js';
import type { UnitOfWork } from '../unit-of-work.js';

export interface PlateHistoryOptions {
  /** Days a read is kept; 0 keeps no history at all. */
  retentionDays: number;
  /** Keep the photo of each call that read a plate, for the history (else only where a webhook
   * already stores it). */
  keepImages: boolean;
  /** Reads of one plate at one camera no further apart than this are one visit. */
  visitGapSeconds: number;
}

/** The repository's filters, with the plate as a user types it. */
export type HistoryQuery = Omit<PlateReadFilter, 'plate' | 'keys'> & {
  /** A plate: exact, or with `fuzzy` its look-alikes and the plates one character off. */
  plate?: string;
  fuzzy?: boolean;
};

/** One stored read as the history API answers it. */
export interface HistoryRead {
  id: number;
  visit_id: number | null;
  camera_id: string | null;
  timestamp: string;
  plate: string;
  score: number;
  dscore: number;
  region: { code: string };
  candidates: Array<{ plate: string; score: number }>;
  box: PlateReading['box'];
  vehicle: NonNullable<PlateReading['vehicle']> | null;
  image_url: string | null;
}

/** Reads removed per retention pass; a pass runs now and then beside a recording. */
const PURGE_BATCH = 500;

/** Every plate an account's calls read, kept for `retentionDays` and searchable (issue 29). */
export class PlateHistoryService {
  constructor(
    private readonly reads: PlateReadRepository,
    private readonly visits: PlateVisitRepository,
    private readonly transaction: UnitOfWork,
    private readonly images: ImageService,
    private readonly notify: { webhooks: WebhookNotifier; events: EventPublisher },
    readonly options: PlateHistoryOptions,
  ) {}

  get enabled(): boolean {
    return this.options.retentionDays > 0;
  }

  /** Whether a call that read `plates` should store its photo for the history. */
  wantsImage(plates: readonly PlateReading[]): boolean {
    return this.enabled && this.options.keepImages && plates.some((p) => p.plate !== '');
  }

  /** Stores the plates one call read (unread redaction boxes are no reads), each in its visit;
   * a visit it starts goes to the account's `plate-visits` webhooks. */
  async record(accountId: number, call: { cameraId?: string; readAt: number }, plates: readonly PlateReading[], imageId: number | undefined, now = Date.now()): Promise<void> {
    const read = plates.filter((p) => p.plate !== '');
    if (!this.enabled || read.length === 0) return;
    const started = await this.transaction(async (repos) => {
      const fresh: PlateVisitRow[] = [];
      for (const p of read) {
        const { visit, isNew } = await this.visitOf(repos, accountId, call.cameraId ?? null, p, call.readAt, imageId, now);
        if (isNew) fresh.push(visit);
        await repos.plateReads.insert([{
          account_id: accountId, camera_id: call.cameraId ?? null, read_at: call.readAt, plate: p.plate, score: p.score, dscore: p.dscore,
          region: p.region.code, candidates: JSON.stringify(p.candidates), box: JSON.stringify(p.box),
          vehicle: p.vehicle ? JSON.stringify(p.vehicle) : null, image_id: imageId ?? null, visit_id: visit.id, created_at: now, keys: plateKeys(p.plate),
        }]);
      }
      return fresh;
    });
    for (const visit of started) {
      const view = visitView(visit, await this.images.urlOfId(visit.image_id));
      await this.notify.webhooks.notify(accountId, 'plate-visits', 'visit.started', view);
      await this.notify.events.publish(accountId, { kind: 'visit.started', cameraId: visit.camera_id, body: view });
    }
    // Retention as a side job of recording: about one call in fifty removes a batch.
    if (Math.random() < 0.02) await this.purge(now);
  }

  /** The visit a read joins (its best read updated), or a new one. */
  private async visitOf(repos: TransactionRepositories, accountId: number, cameraId: string | null, p: PlateReading, readAt: number, imageId: number | undefined, now: number) {
    const key = foldPlate(p.plate);
    const open = await repos.plateVisits.findOpen(accountId, cameraId, key, readAt, this.options.visitGapSeconds * 1000);
    if (!open) {
      const visit = await repos.plateVisits.create({
        account_id: accountId, camera_id: cameraId, plate_key: key, first_seen: readAt, last_seen: readAt, reads: 1,
        plate: p.plate, score: p.score, region: p.region.code, image_id: imageId ?? null, created_at: now,
      });
      return { visit, isNew: true };
    }
    const better = p.score > open.score ? { plate: p.plate, score: p.score, region: p.region.code, image_id: imageId ?? open.image_id } : {};
    const visit = { ...open, first_seen: Math.min(open.first_seen, readAt), last_seen: Math.max(open.last_seen, readAt), reads: open.reads + 1, ...better };
    await repos.plateVisits.update(open.id, { first_seen: visit.first_seen, last_seen: visit.last_seen, reads: visit.reads, ...better });
    return { visit, isNew: false };
  }

  /** Removes reads older than the retention (and their images), a batch at a time; returns how
   * many it removed. */
  async purge(now = Date.now()): Promise<number> {
    const expired = await this.reads.expired(now - this.options.retentionDays * 86_400_000, PURGE_BATCH);
    await this.reads.remove(expired.map((r) => r.id));
    await this.visits.removeEmpty([...new Set(expired.flatMap((r) => (r.visit_id === null ? [] : [r.visit_id])))]);
    // An image may serve several reads of one call: it goes with the last of them.
    for (const imageId of new Set(expired.flatMap((r) => (r.image_id === null ? [] : [r.image_id])))) {
      if (!(await this.reads.usesImage(imageId))) await this.images.removeById(imageId);
    }
    return expired.length;
  }

  /** A page of an account's reads, newest first, and where the next page starts. */
  async list(accountId: number, q: HistoryQuery): Promise<{ reads: HistoryRead[]; next: ReadCursor | null }> {
    const plate = q.plate === undefined ? undefined : normalizePlate(q.plate);
    const rows = await this.reads.list(accountId, {
      ...(plate ? (q.fuzzy ? { keys: plateKeys(plate) } : { plate }) : {}),
      cameraId: q.cameraId, region: q.region?.toLowerCase(), from: q.from, until: q.until, after: q.after, limit: q.limit + 1,
    });
    const { page, next } = pageOf(rows, q.limit, (r) => ({ readAt: r.read_at, id: r.id }));
    return { reads: page.map((r) => this.view(r)), next };
  }

  /** A page of an account's visits, the latest seen first; `plate` matches look-alikes. */
  async listVisits(accountId: number, q: Omit<HistoryQuery, 'fuzzy' | 'region'>): Promise<{ visits: HistoryVisit[]; next: ReadCursor | null }> {
    const rows = await this.visits.list(accountId, {
      plateKey: q.plate ? foldPlate(q.plate) : undefined, cameraId: q.cameraId, from: q.from, until: q.until, after: q.after, limit: q.limit + 1,
    });
    const { page, next } = pageOf(rows, q.limit, (v) => ({ readAt: v.last_seen, id: v.id }));
    const images = await this.images.urlsOfIds(page.map((v) => v.image_id));
    return { visits: page.map((v, i) => visitView(v, images[i] ?? null)), next };
  }

  /** One visit with its reads, or undefined where the account has no such visit. */
  async visit(accountId: number, id: number): Promise<(HistoryVisit & { results: HistoryRead[] }) | undefined> {
    const v = await this.visits.find(accountId, id);
    if (!v) return undefined;
    const reads = await this.reads.ofVisit(accountId, id);
    return { ...visitView(v, await this.images.urlOfId(v.image_id)), results: reads.map((r) => this.view(r)) };
  }

  private view(r: ListedRead): HistoryRead {
    return {
      id: r.id, visit_id: r.visit_id, camera_id: r.camera_id, timestamp: new Date(r.read_at).toISOString(), plate: r.plate, score: r.score, dscore: r.dscore,
      region: { code: r.region }, candidates: JSON.parse(r.candidates), box: JSON.parse(r.box), vehicle: r.vehicle ? JSON.parse(r.vehicle) : null,
      image_url: r.image_public_id === null ? null : this.images.url(r.image_public_id),
    };
  }
}

function visitView(v: PlateVisitRow, imageUrl: string | null): HistoryVisit {
  return {
    id: v.id, camera_id: v.camera_id, plate: v.plate, score: v.score, region: { code: v.region },
    first_seen: new Date(v.first_seen).toISOString(), last_seen: new Date(v.last_seen).toISOString(), reads: v.reads,
    image_url: imageUrl,
  };
}

/** The first `limit` rows of `rows` (asked for one more than a page), and where the next page
 * starts, if there is one. */
function pageOf<T>(rows: readonly T[], limit: number, cursorOf: (row: T) => ReadCursor): { page: T[]; next: ReadCursor | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { page, next: rows.length > limit && last ? cursorOf(last) : null };
}

/** One visit as the API and the `visit.started` webhook give it. */
export interface HistoryVisit {
  id: number;
  camera_id: string | null;
  plate: string;
  score: number;
  region: { code: string };
  first_seen: string;
  last_seen: string;
  reads: number;
  image_url: string | null;
}
