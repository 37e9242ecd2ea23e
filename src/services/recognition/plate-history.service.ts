import { plateKeys } from '../../domain/plates/plate-keys.js';
import type { PlateReadRepository, PlateReadRow, ReadCursor } from '../../storage/repositories/plate-read.repository.js';
import type { PlateReading } from '../../vision/plates/plate.types.js';
import type { ImageService } from '../images.service.js';
import type { UnitOfWork } from '../unit-of-work.js';

export interface PlateHistoryOptions {
  /** Days a read is kept; 0 keeps no history at all. */
  retentionDays: number;
  /** Keep the photo of each call that read a plate, for the history (else only where a webhook
   * already stores it). */
  keepImages: boolean;
}

export interface HistoryQuery {
  /** A plate: exact, or with `fuzzy` its look-alikes and the plates one character off. */
  plate?: string;
  fuzzy?: boolean;
  cameraId?: string;
  region?: string;
  from?: number;
  until?: number;
  after?: ReadCursor;
  limit: number;
}

/** One stored read as the history API answers it. */
export interface HistoryRead {
  id: number;
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
    private readonly transaction: UnitOfWork,
    private readonly images: ImageService,
    readonly options: PlateHistoryOptions,
  ) {}

  get enabled(): boolean {
    return this.options.retentionDays > 0;
  }

  /** Whether a call that read `plates` should store its photo for the history. */
  wantsImage(plates: readonly PlateReading[]): boolean {
    return this.enabled && this.options.keepImages && plates.some((p) => p.plate !== '');
  }

  /** Stores the plates one call read (unread redaction boxes are no reads). */
  async record(accountId: number, call: { cameraId?: string; readAt: number }, plates: readonly PlateReading[], imageId: number | undefined, now = Date.now()): Promise<void> {
    const read = plates.filter((p) => p.plate !== '');
    if (!this.enabled || read.length === 0) return;
    await this.transaction((repos) => repos.plateReads.insert(read.map((p) => ({
      account_id: accountId, camera_id: call.cameraId ?? null, read_at: call.readAt, plate: p.plate, score: p.score, dscore: p.dscore,
      region: p.region.code, candidates: JSON.stringify(p.candidates), box: JSON.stringify(p.box),
      vehicle: p.vehicle ? JSON.stringify(p.vehicle) : null, image_id: imageId ?? null, created_at: now, keys: plateKeys(p.plate),
    }))));
    // Retention as a side job of recording: about one call in fifty removes a batch.
    if (Math.random() < 0.02) await this.purge(now);
  }

  /** Removes reads older than the retention (and their images), a batch at a time; returns how
   * many it removed. */
  async purge(now = Date.now()): Promise<number> {
    const expired = await this.reads.expired(now - this.options.retentionDays * 86_400_000, PURGE_BATCH);
    await this.reads.remove(expired.map((r) => r.id));
    // An image may serve several reads of one call: it goes with the last of them.
    for (const imageId of new Set(expired.flatMap((r) => (r.image_id === null ? [] : [r.image_id])))) {
      if (!(await this.reads.usesImage(imageId))) await this.images.removeById(imageId);
    }
    return expired.length;
  }

  /** A page of an account's reads, newest first, and where the next page starts. */
  async list(accountId: number, q: HistoryQuery): Promise<{ reads: HistoryRead[]; next: ReadCursor | null }> {
    const plate = q.plate?.toLowerCase().replace(/[^a-z0-9]/g, '');
    const rows = await this.reads.list(accountId, {
      ...(plate ? (q.fuzzy ? { keys: plateKeys(plate) } : { plate }) : {}),
      cameraId: q.cameraId, region: q.region?.toLowerCase(), from: q.from, until: q.until, after: q.after, limit: q.limit + 1,
    });
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    return {
      reads: await Promise.all(page.map((r) => this.view(r))),
      next: rows.length > q.limit && last ? { readAt: last.read_at, id: last.id } : null,
    };
  }

  private async view(r: PlateReadRow): Promise<HistoryRead> {
    return {
      id: r.id, camera_id: r.camera_id, timestamp: new Date(r.read_at).toISOString(), plate: r.plate, score: r.score, dscore: r.dscore,
      region: { code: r.region }, candidates: JSON.parse(r.candidates), box: JSON.parse(r.box), vehicle: r.vehicle ? JSON.parse(r.vehicle) : null,
      image_url: await this.images.urlOfId(r.image_id),
    };
  }
}
