import { bestRegionFit, GENERIC_WEIGHT } from '../../domain/plates/region-fit.js';

/** Characters the recogniser mixes up, both ways (which of the pair a slot wants is the
 * region grammar's call). */
const CONFUSIONS: Readonly<Record<string, string>> = {
  O: '0', Q: '0', D: '0', I: '1', L: '1', Z: '2', S: '5', B: '8', G: '6', T: '7', A: '4',
  '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '8': 'B', '6': 'G', '7': 'T', '4': 'A',
};

export interface CharOption {
  char: string;
  prob: number;
}

/** How sure a look was of a character: its best option's probability (0 when it has none). */
export const topProb = (options: readonly CharOption[]): number => options[0]?.prob ?? 0;

/** A character's options with every probability scaled: a look made less (or more) sure of it. */
export const scaledOptions = (options: readonly CharOption[], scale: number): CharOption[] =>
  options.map((o) => ({ char: o.char, prob: o.prob * scale }));

export interface ScoringOptions {
  regions: readonly string[];
  strictRegion: boolean;
  textFormats: readonly string[];
}

export interface ScoredPlate {
  /** Upper case, alphanumeric. */
  plate: string;
  /** Reading confidence after the grammar's say, 0..1. */
  score: number;
  region: { code: string; score: number };
  /** True when a region template or a text format matched. */
  matched: boolean;
  /** Probability of the reading's least sure character (a look-alike swap counts at its floor,
   * but 0 for O and 1 for I at the probability of what was read; an omitted character is no
   * character of the reading). */
  weakest: number;
}

const BEAM = 48;
/** A swap the recogniser did not propose costs this much probability. */
const SWAP_FACTOR = 0.3;
/** Pairs that many plate fonts draw alike: the recogniser's certainty says nothing about which
 * one a plate holds, so the grammar decides. */
const SAME_GLYPH = new Set(['O0', '0O', 'I1', '1I']);
/** Other look-alikes (2/Z, 8/B, A/4) differ in every plate font: a character read with less
 * doubt than this keeps the swap's cost only in proportion to its doubt, so that a format
 * (often another country's) cannot overrule a character the recogniser saw clearly. */
const SURE_DOUBT = 0.1;

/** How plausible the look-alike of a top choice is, at least: a share of the top choice's
 * probability, smaller when the recogniser was sure of a character that looks different.
 * `sureCosts` false keeps the full share (a region the client named vouches for its format). */
export function swapFloor(top: CharOption, twin: string, sureCosts = true): number {
  const floor = top.prob * SWAP_FACTOR;
  if (!sureCosts || SAME_GLYPH.has(top.char + twin)) return floor;
  return floor * Math.min(1, (1 - top.prob) / SURE_DOUBT);
}

/** A position's option; `seen`: how surely the recogniser saw its glyph (for the twin of a
 * glyph drawn alike, O for 0, the top choice's probability), when that differs from `prob`. */
type PositionOption = CharOption & { seen?: number };

/** Options per position: the recogniser's alternatives plus the look-alike of its top choice,
 * so a grammar can ask for a digit where the network saw O. */
function positionOptions(alts: readonly CharOption[], sureCosts: boolean): PositionOption[] {
  const out: PositionOption[] = alts.filter((a) => /^[A-Z0-9]$/.test(a.char) && a.prob > 0.001).map((a) => ({ ...a }));
  const top = out[0];
  if (!top) return out;
  const twin = CONFUSIONS[top.char];
  if (!twin) return out;
  // The look-alike is at least this plausible, whatever tiny probability the network gave it.
  const floor = swapFloor(top, twin, sureCosts);
  const seen = SAME_GLYPH.has(top.char + twin) ? top.prob : undefined;
  const known = out.find((o) => o.char === twin);
  if (known) Object.assign(known, { prob: Math.max(known.prob, floor), seen });
  else out.push({ char: twin, prob: floor, seen });
  return out.sort((a, b) => b.prob - a.prob);
}

/** A character this unsure may be a bolt, a frame edge or a sticker: the reading without it
 * is a hypothesis too, as likely as the character is not. */
const SKIP_BELOW = 0.6;
/** How likely the omission is, per unit of the character's doubt: below 1, so that a character
 * the recogniser saw is kept when the plate fits a format with it as well as without it. */
const SKIP_WEIGHT = 0.6;

export interface Expansion {
  text: string;
  logp: number;
  /** See `ScoredPlate.weakest`. */
  weakest: number;
  /** The reading's first (last) character stands where the recogniser was unsure of any. */
  unsureFirst: boolean;
  unsureLast: boolean;
}

/** The most probable strings a per-character reading allows (beam search over alternatives
 * and the omission of unsure characters); `sureCosts` as in `swapFloor`. */
export function expandReading(chars: readonly (readonly CharOption[])[], sureCosts = true): Expansion[] {
  let beam: Expansion[] = [{ text: '', logp: 0, weakest: 1, unsureFirst: false, unsureLast: false }];
  for (const alts of chars) {
    const opts = positionOptions(alts, sureCosts);
    if (opts.length === 0) continue;
    const top = opts[0]!.prob;
    const unsure = top < SKIP_BELOW;
    if (unsure) opts.push({ char: '', prob: (1 - top) * SKIP_WEIGHT });
    const next: Expansion[] = [];
    for (const b of beam) for (const o of opts) {
      const logp = b.logp + Math.log(Math.max(1e-6, o.prob));
      if (!o.char) next.push({ ...b, logp });
      else next.push({ text: b.text + o.char, logp, weakest: Math.min(b.weakest, o.seen ?? o.prob), unsureFirst: b.text ? b.unsureFirst : unsure, unsureLast: unsure });
    }
    next.sort((a, b) => b.logp - a.logp);
    beam = next.slice(0, BEAM);
  }
  return beam.filter((b) => b.text.length > 0);
}

/** Without a region hint, the format weight of a reading whose first or last character the
 * recogniser was unsure of (a bolt, an emblem, a stacked type code at the line's end reads as a
 * letter or a digit at about 0.3-0.5): at most the weight of the reading without that
 * character, and no less than a generic shape's. Every region's formats compete then, and some
 * format fits almost any text with one character more (3127K with a stray B is a Portuguese
 * 3127KB), so a specific format has to rest on the characters the recogniser saw. */
function endSupportedWeight(e: Expansion, weight: number, fitWeight: (text: string) => number): number {
  let w = weight;
  if (e.unsureFirst) w = Math.min(w, fitWeight(e.text.slice(1)));
  if (e.unsureLast) w = Math.min(w, fitWeight(e.text.slice(0, -1)));
  return Math.max(w, Math.min(weight, GENERIC_WEIGHT));
}

/** Ranks the strings a reading allows by confidence and fit to the region grammars. */
export function scoreReading(chars: readonly (readonly CharOption[])[], options: ScoringOptions): ScoredPlate[] {
  const scope = { regions: options.regions.map((r) => r.toLowerCase()), strict: options.strictRegion };
  const formats = options.textFormats.flatMap((f) => {
    try {
      return [new RegExp(f, 'i')];
    } catch {
      return [];
    }
  });
  const hinted = options.regions.length > 0;
  const out: ScoredPlate[] = [];
  const fitWeight = (text: string) => bestRegionFit(text, scope)?.weight ?? 0;
  for (const reading of expandReading(chars, !hinted)) {
    const { text, logp, weakest } = reading;
    // Per position of the reading, so that dropping a character is not free.
    const confidence = Math.exp(logp / Math.max(1, chars.length));
    const fit = bestRegionFit(text, scope);
    let weight = fit?.weight ?? 0;
    if (!hinted && weight > 0) weight = endSupportedWeight(reading, weight, fitWeight);
    const code = fit?.code ?? '';
    const formatHit = formats.some((re) => re.test(text));
    if (formatHit) weight = Math.max(weight, 1.2);
    const matched = weight > 0;
    if (options.strictRegion && hinted && !matched) continue;
    let factor = matched ? 0.7 + 0.3 * Math.min(1, weight) : 0.7;
    // Formats the client gave outrank the built-in grammars.
    if (formats.length > 0 && !formatHit) factor *= 0.8;
    const score = confidence * factor;
    out.push({
      plate: text,
      score,
      matched,
      weakest,
      region: { code: code || (options.regions[0]?.toLowerCase() ?? 'unknown'), score: matched ? confidence * Math.min(1, weight) : 0 },
    });
  }
  return out.sort((a, b) => b.score - a.score);
}
