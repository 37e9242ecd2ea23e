import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { PlateReadsTable } from '../db/schema.js';

export type PlateReadRow = Selectable<PlateReadsTable>;
/** A read as lists give it: with its photo's public id (one join, not a query per read). */
export type ListedRead = PlateReadRow & { image_public_id: string | null };
export type NewPlateRead = Omit<Insertable<PlateReadsTable>, 'id'> & { keys: readonly string[] };

/** Where a page of reads starts: after the read at `readAt` with `id` (newest first). */
export interface ReadCursor {
  readAt: number;
  id: number;
}

/** A cursor as a page link carries it: opaque to clients. */
export const cursorToken = (c: ReadCursor): string => Buffer.from(`${c.readAt}.${c.id}`).toString('base64url');

/** The cursor of a token, or undefined where it is none (forged, cut short). */
export function parseCursorToken(token: string): ReadCursor | undefined {
  const m = /^(\d{1,16})\.(\d{1,16})$/.exec(Buffer.from(token, 'base64url').toString());
  return m ? { readAt: Number(m[1]), id: Number(m[2]) } : undefined;
}

export interface PlateReadFilter {
  /** Exact plate, lower case. */
  plate?: string;
  /** Any of these search keys (src/domain/plates/plate-keys.ts). */
  keys?: readonly string[];
  cameraId?: string;
  region?: string;
  /** Inclusive. */
  from?: number;
  /** Exclusive. */
  until?: number;
  after?: ReadCursor;
  limit: number;
}

export class PlateReadRepository {
  constructor(private readonly db: Db) {}

  /** Stores reads with their search keys; call inside a transaction (UnitOfWork) so a read
   * never lands without its keys. */
  async insert(reads: readonly NewPlateRead[]): Promise<number[]> {
    const ids: number[] = [];
    for (const { keys, ...read } of reads) {
      const { id } = await this.db.insertInto('plate_reads').values(read).returning('id').executeTakeFirstOrThrow();
      ids.push(id);
      if (keys.length > 0) {
        await this.db.insertInto('plate_read_keys').values(keys.map((key) => ({ read_id: id, account_id: read.account_id, key, read_at: read.read_at, camera_id: read.camera_id }))).execute();
      }
    }
    return ids;
  }

  /** An account's reads, newest first. With `keys`, each key's reads are found from the keys'
   * index, newest first, and the pages merged: the index walk stops at a page however many
   * reads a key has (a regular's plate at the gate is seen thousands of times). */
  async list(accountId: number, f: PlateReadFilter): Promise<ListedRead[]> {
    if (!f.keys) return this.page(accountId, f).execute();
    const perKey = await Promise.all(f.keys.map((key) => this.page(accountId, f, key).execute()));
    const byId = new Map(perKey.flat().map((r) => [r.id, r]));
    return [...byId.values()].sort((a, b) => b.read_at - a.read_at || b.id - a.id).slice(0, f.limit);
  }

  /** One page of reads, newest first: all of them, or those of one search key. */
  private page(accountId: number, f: PlateReadFilter, key?: string) {
    // Time and cursor conditions on the columns of the index the walk follows.
    const [at, id] = key === undefined ? [sql.ref<number>('plate_reads.read_at'), sql.ref<number>('plate_reads.id')] : [sql.ref<number>('k.read_at'), sql.ref<number>('k.read_id')];
    let q = key === undefined
      ? this.db.selectFrom('plate_reads').leftJoin('images', 'images.id', 'plate_reads.image_id').selectAll('plate_reads').select('images.public_id as image_public_id')
        .where('plate_reads.account_id', '=', accountId)
      : this.db.selectFrom('plate_read_keys as k').innerJoin('plate_reads', 'plate_reads.id', 'k.read_id').leftJoin('images', 'images.id', 'plate_reads.image_id')
        .selectAll('plate_reads').select('images.public_id as image_public_id').where('k.account_id', '=', accountId).where('k.key', '=', key);
    if (f.plate !== undefined) q = q.where('plate_reads.plate', '=', f.plate);
    // With a key, on the key's own camera column: the index walk stays on that camera's reads.
    const camera = key === undefined ? sql.ref<string>('plate_reads.camera_id') : sql.ref<string>('k.camera_id');
    if (f.cameraId !== undefined) q = q.where(camera, '=', f.cameraId);
    if (f.region !== undefined) q = q.where('plate_reads.region', '=', f.region);
    if (f.from !== undefined) q = q.where(at, '>=', f.from);
    if (f.until !== undefined) q = q.where(at, '<', f.until);
    if (f.after) {
      const after = f.after;
      q = q.where((eb) => eb.or([eb(at, '<', after.readAt), eb.and([eb(at, '=', after.readAt), eb(id, '<', after.id)])]));
    }
    return q.orderBy(at, 'desc').orderBy(id, 'desc').limit(f.limit);
  }

  /** Up to `limit` of the reads stored before `cutoff` (any account), oldest first: what
   * retention removes next, with the images to remove beside them. */
  expired(cutoff: number, limit: number): Promise<Array<{ id: number; image_id: number | null; visit_id: number | null }>> {
    return this.db.selectFrom('plate_reads').select(['id', 'image_id', 'visit_id']).where('created_at', '<', cutoff).orderBy('created_at').limit(limit).execute();
  }

  /** A visit's reads, in the order they were read. */
  ofVisit(accountId: number, visitId: number): Promise<ListedRead[]> {
    return this.db.selectFrom('plate_reads').leftJoin('images', 'images.id', 'plate_reads.image_id').selectAll('plate_reads').select('images.public_id as image_public_id')
      .where('plate_reads.account_id', '=', accountId).where('plate_reads.visit_id', '=', visitId)
      .orderBy('plate_reads.read_at').orderBy('plate_reads.id').limit(1000).execute();
  }

  async usesImage(imageId: number): Promise<boolean> {
    return (await this.db.selectFrom('plate_reads').select('id').where('image_id', '=', imageId).limit(1).executeTakeFirst()) !== undefined;
  }

  async remove(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom('plate_read_keys').where('read_id', 'in', ids).execute();
    await this.db.deleteFrom('plate_reads').where('id', 'in', ids).execute();
  }
}
