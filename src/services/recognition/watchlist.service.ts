import { foldPlate, normalizePlate, plateKeys } from '../../domain/plates/plate-keys.js';
import type { WatchlistRepository, WatchlistRow } from '../../storage/repositories/watchlist.repository.js';
import { errors } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';

export const WATCHLIST_TAGS = ['alert', 'allow', 'deny'] as const;
export type WatchlistTag = (typeof WATCHLIST_TAGS)[number];

export interface WatchlistInput {
  name: string;
  tag: WatchlistTag;
  /** Look-alikes and plates one character off match too. */
  fuzzy: boolean;
  plates: ReadonlyArray<{ plate: string; note?: string }>;
}

export interface WatchlistView {
  id: number;
  name: string;
  tag: WatchlistTag;
  fuzzy: boolean;
  plates: Array<{ plate: string; note: string }>;
  created: string;
}

/** A read plate that is on a list: the list, and the entry it matched. */
export interface WatchlistMatch {
  watchlist: { id: number; name: string; tag: WatchlistTag };
  entry: { plate: string; note: string };
  exact: boolean;
}

const MAX_PLATES = 10_000;
const MAX_LISTS = 100;

/** A stored tag (written only through WatchlistInput, so always one of WATCHLIST_TAGS). */
const tagOf = (stored: string): WatchlistTag => WATCHLIST_TAGS.find((t) => t === stored) ?? 'alert';

/** Named lists of plates (issue 29): alert, allow or deny; each read is checked against them. */
export class WatchlistService {
  constructor(private readonly lists: WatchlistRepository, private readonly transaction: UnitOfWork) {}

  async create(accountId: number, input: WatchlistInput, now = Date.now()): Promise<WatchlistView> {
    const plates = this.checked(input);
    if ((await this.lists.list(accountId)).length >= MAX_LISTS) throw errors.badRequest(`An account can have at most ${MAX_LISTS} watchlists.`, 'too_many_watchlists');
    if (await this.lists.findByName(accountId, input.name)) throw errors.conflict(`A watchlist named "${input.name}" already exists.`, 'watchlist_exists');
    const row = await this.transaction((repos) => repos.watchlists.create({ account_id: accountId, name: input.name, tag: input.tag, fuzzy: input.fuzzy ? 1 : 0, created_at: now }, plates));
    return this.view(row, plates);
  }

  async replacePlates(accountId: number, id: number, plates: WatchlistInput['plates']): Promise<WatchlistView> {
    const list = await this.require(accountId, id);
    const checked = this.checked({ name: list.name, tag: tagOf(list.tag), fuzzy: list.fuzzy === 1, plates });
    await this.transaction((repos) => repos.watchlists.setPlates(list, checked));
    return this.view(list, checked);
  }

  async get(accountId: number, id: number): Promise<WatchlistView> {
    const list = await this.require(accountId, id);
    return this.view(list, await this.lists.plates(accountId, id));
  }

  async list(accountId: number): Promise<WatchlistView[]> {
    const [lists, plates] = await Promise.all([this.lists.list(accountId), this.lists.plates(accountId)]);
    return lists.map((l) => this.view(l, plates.filter((p) => p.watchlist_id === l.id)));
  }

  async remove(accountId: number, id: number): Promise<void> {
    if (!(await this.lists.remove(accountId, id))) throw errors.notFound('No such watchlist.', 'not_found');
  }

  /** The lists a plate is on: the same plate with look-alikes folded, or, on fuzzy lists, one
   * character off (src/domain/plates/plate-keys.ts). The account's lists are read once, for
   * every plate the returned function is asked about. */
  async matcher(accountId: number): Promise<(plate: string) => WatchlistMatch[]> {
    const lists = await this.lists.list(accountId);
    if (lists.length === 0) return () => [];
    const entries = (await this.lists.plates(accountId)).map((e) => ({ ...e, folded: foldPlate(e.plate), keys: plateKeys(e.plate) }));
    return (plate) => {
      const folded = foldPlate(plate);
      const keys = new Set(plateKeys(plate));
      const out: WatchlistMatch[] = [];
      for (const l of lists) {
        const listed = entries.filter((x) => x.watchlist_id === l.id);
        const hit = listed.find((e) => e.folded === folded) ?? (l.fuzzy === 1 ? listed.find((e) => e.keys.some((k) => keys.has(k))) : undefined);
        if (hit) out.push({ watchlist: { id: l.id, name: l.name, tag: tagOf(l.tag) }, entry: { plate: hit.plate, note: hit.note }, exact: hit.folded === folded });
      }
      return out;
    };
  }

  private async require(accountId: number, id: number): Promise<WatchlistRow> {
    const list = await this.lists.find(accountId, id);
    if (!list) throw errors.notFound('No such watchlist.', 'not_found');
    return list;
  }

  private checked(input: WatchlistInput): Array<{ plate: string; note: string }> {
    if (!input.name.trim() || input.name.length > 100) throw errors.badRequest('A watchlist needs a name of 1 to 100 characters.', 'invalid_watchlist');
    if (input.plates.length > MAX_PLATES) throw errors.badRequest(`A watchlist holds at most ${MAX_PLATES} plates.`, 'invalid_watchlist');
    const seen = new Set<string>();
    const out: Array<{ plate: string; note: string }> = [];
    for (const p of input.plates) {
      const plate = normalizePlate(p.plate);
      if (plate.length < 2 || plate.length > 16) throw errors.badRequest(`"${p.plate.slice(0, 20)}" is no plate: 2 to 16 letters and digits.`, 'invalid_plate');
      if (!seen.has(plate)) out.push({ plate, note: (p.note ?? '').slice(0, 200) });
      seen.add(plate);
    }
    return out;
  }

  private view(l: WatchlistRow, plates: ReadonlyArray<{ plate: string; note: string }>): WatchlistView {
    return { id: l.id, name: l.name, tag: tagOf(l.tag), fuzzy: l.fuzzy === 1, plates: plates.map((p) => ({ plate: p.plate, note: p.note })), created: new Date(l.created_at).toISOString() };
  }
}
