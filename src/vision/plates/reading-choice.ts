import { quadSize } from '../image/quad.js';
import { bestRegionFit } from '../../domain/plates/region-fit.js';
import type { ModeSettings } from './plate-modes.js';
import { textBounds } from './plate-box.js';
import { wideFont } from './plate-font.js';
import { type CharOption, type ScoredPlate, topProb } from './plate-scoring.js';
import type { Box, PlateCandidate, PlateReadOptions, Quad } from './plate.types.js';

/** How the pipeline chooses among readings of one candidate: the grammars' rankings merged over
 * looks and readers, O/0 ties between regions, and whether a line is settled. */

export function lineHeight(quads: readonly Quad[]): number {
  return Math.max(...quads.map((q) => quadSize(q).height));
}

/** Scores this close count as a tie: the folded twins score alike up to the regions' weights. */
const TWIN_TIE = 0.02;

/** The region whose own format (not a generic shape) `plate` fits best, if any; `wide` as in
 * regionByFont. */
function specificRegion(plate: string, wide: boolean | undefined): string | undefined {
  const fit = bestRegionFit(plate, { regions: [], strict: false }, wide);
  return fit && fit.weight === 1 ? fit.code : undefined;
}

/** Two readings as likely as each other that differ only where a reader cannot tell O from 0 or
 * I from 1 (Vigil's trained reader folds them) and that the region formats, with the font the
 * line is drawn in (`wide`, see plate-font.ts), give to different regions: in a wide font
 * 0LB4809 is Czech, OLB4809 Brazilian. Only a reader that sees the difference (the second
 * opinion) can settle it. Twins of one region (a US ABC1234 and ABCI234) keep the grammar's
 * choice: asking would cost a recogniser run on most plates. */
export function twinTie(a: ScoredPlate, b: ScoredPlate, wide: boolean | undefined): boolean {
  if (a.plate.length !== b.plate.length || b.score < a.score - TWIN_TIE || a.plate === b.plate) return false;
  const fold = (t: string) => t.replace(/O/g, '0').replace(/I/g, '1');
  if (fold(a.plate) !== fold(b.plate)) return false;
  const [ra, rb] = [specificRegion(a.plate, wide), specificRegion(b.plate, wide)];
  return ra !== undefined && rb !== undefined && ra !== rb;
}

/** A top reading tied with its O/0-I/1 twin (see twinTie) is settled by `referee`, the second
 * opinion's ranking: the twin it scores higher goes first, at the top's score. */
export function breakTwinTies(ranked: ScoredPlate[], referee: readonly ScoredPlate[] | undefined, wide: boolean | undefined): ScoredPlate[] {
  const [top] = ranked;
  if (!top || !referee) return ranked;
  const refereeScore = (p: ScoredPlate) => referee.find((r) => r.plate === p.plate)?.score ?? 0;
  const twins = ranked.filter((r) => r !== top && twinTie(top, r, wide));
  const best = twins.reduce((b, r) => (refereeScore(r) > refereeScore(b) ? r : b), top);
  if (best === top) return ranked;
  return [{ ...best, score: top.score }, ...ranked.filter((r) => r !== best)];
}

/** Merges the rankings of several looks at one candidate: each plate keeps its best score. */
export function bestOfViews(rankings: readonly ScoredPlate[][]): ScoredPlate[] {
  const best = new Map<string, ScoredPlate>();
  for (const list of rankings) for (const s of list) {
    const known = best.get(s.plate);
    if (!known || s.score > known.score) best.set(s.plate, s);
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

/** Whether a candidate's number of `length` characters is drawn in a wide font (plate-font.ts). */
function fontOf(candidate: PlateCandidate, length: number): boolean | undefined {
  return wideFont(candidate, textBounds(candidate.lines), lineHeight(candidate.lines), length);
}

/** Without a region hint, a seven-character number whose letters and digits fit several
 * regions' formats equally (ABC1234: Texas, New York, Brazil) is given to a region whose plates
 * draw characters as wide as these are (see plate-font.ts). Readings and scores are as the
 * grammars gave them. */
export function regionByFont(top: ScoredPlate, wide: boolean | undefined, options: PlateReadOptions): string {
  if (options.regions.length > 0 || !top.matched || wide === undefined) return top.region.code;
  return bestRegionFit(top.plate, { regions: [], strict: false }, wide)?.code ?? top.region.code;
}

/** A first look at least this sure of a grammar match is not read again with the brightest
 * channel (in every mode: fast mode's lower sure score would skip second looks that find plates). */
const SETTLED_SCORE = 0.88;
/** ... and only when no character of it is doubtful: an emblem between character groups (a
 * peach, a tree) reads as an extra C, I or 1 at about 0.6-0.85 and can still fit a grammar. */
const SETTLED_CHAR = 0.9;

/** What the pipeline asks of a line's first look, judged on readings of the mode's plate length
 * (`score` ranks a look's readings; each look is ranked once). */
export interface LineJudge {
  /** A look's readings as the grammars rank them. */
  ranking(chars: CharOption[][]): ScoredPlate[];
  /** The best readings tie on O/0 or I/1 between regions (twinTie); `candidate` gives the font. */
  twinTied(chars: CharOption[][], candidate: PlateCandidate | undefined): boolean;
  /** A sure grammar match with no doubtful character; with `candidate`, no O/0 tie either. */
  settled(chars: CharOption[][], candidate?: PlateCandidate): boolean;
  /** Whether a candidate also gets the brightest channel (RereadOptions.secondLook). */
  secondLook(chars: CharOption[][], candidate: PlateCandidate, all: readonly CharOption[][][]): boolean;
  /** Whether an unsettled line (its looks `views`) is worth the second opinion, beside the
   * looks at the photo's other lines (`others`). */
  worthSecondOpinion(views: readonly CharOption[][][], others: readonly CharOption[][][][]): boolean;
}

export function createLineJudge(score: (chars: CharOption[][]) => ScoredPlate[], mode: Pick<ModeSettings, 'minLength' | 'secondLookPlateLikeOnly'>): LineJudge {
  const rankings = new Map<CharOption[][], ScoredPlate[]>();
  const ranking = (chars: CharOption[][]) => {
    let ranked = rankings.get(chars);
    if (!ranked) rankings.set(chars, (ranked = score(chars)));
    return ranked;
  };
  const fullLength = (chars: CharOption[][]) => ranking(chars).filter((r) => r.plate.length >= mode.minLength);
  /** A look that reads as some plate format at full length (not a dealer's name, a slogan). */
  const plateLike = (chars: CharOption[][]) => fullLength(chars).some((r) => r.matched);
  const twinTied = (chars: CharOption[][], candidate: PlateCandidate | undefined) => {
    const [top, ...rest] = fullLength(chars);
    const wide = top && candidate && fontOf(candidate, top.plate.length);
    return !!top && rest.some((r) => twinTie(top, r, wide));
  };
  const settled = (chars: CharOption[][], candidate?: PlateCandidate) => {
    const top = fullLength(chars)[0];
    return !!top?.matched && top.score >= SETTLED_SCORE && chars.every((c) => topProb(c) >= SETTLED_CHAR) && !twinTied(chars, candidate);
  };
  const secondLook = (chars: CharOption[][], candidate: PlateCandidate, all: readonly CharOption[][][]) => {
    if (settled(chars, candidate)) return false;
    // The brightest channel fades marks, it does not bring out characters: a line read with
    // fewer characters than the shortest plate (a sticker, a dealer's initials, a stray
    // stroke) stays too short. No such line gave a plate in the plate sets, and they took
    // a tenth of regular mode's recogniser runs on the US scenes. (Fast mode never read them
    // again: they fit no format.)
    if (chars.length < mode.minLength) return false;
    // A line that fits no plate format at all (a dealer's name, a slogan) is not worth a
    // second look once another line reads as a settled plate, nor ever in fast mode: that
    // look fades an emblem inside a plate, it does not turn other text into one. Plate-like
    // lines still get it: a photo may hold a second plate.
    return plateLike(chars) || (!mode.secondLookPlateLikeOnly && !all.some((o) => o !== chars && settled(o)));
  };
  // As with the second look: a line no look reads as any plate format (a dealer's name, a sign)
  // is not read again once another line of the photo is a settled plate.
  const worthSecondOpinion = (views: readonly CharOption[][][], others: readonly CharOption[][][][]) =>
    views.some(plateLike) || !others.some((o) => o.some((v) => settled(v)));
  return { ranking, twinTied, settled, secondLook, worthSecondOpinion };
}
