import type { RawImage } from '../image/decode.js';
import { padQuad, quadSize, widenQuad } from '../image/quad.js';
import { cropRect, warpQuad } from '../image/warp.js';
import { type CharOption, topProb } from './plate-scoring.js';
import { brightestChannel, hasColour } from './plate-variants.js';
import { separatorMarks } from './separator-marks.js';
import { numberColumns, toCharacterRows } from './small-print.js';
import { referenceScale } from './photo-scale.js';
import type { PlateCandidate, Quad } from './plate.types.js';

/** Margin at the ends of a close-up line, in line heights: a close-up's box hugs the glyphs, and
 * the usual margin cuts into a first or last character the detector saw faintly. */
export const CLOSE_UP_PAD_X = 0.15;

/** What re-reading needs from the OCR engine (src/vision/ocr). */
export interface CropRecognizer {
  recognizeCrops(crops: readonly RawImage[], options?: { charset?: string; batchSize?: number; minWidth?: number }): Promise<Array<{
    text: string;
    charConfidences: number[];
    alternatives: Array<Array<{ char: string; prob: number }>>;
    /** Per character, the crop columns where the recogniser saw it. */
    charSpans?: Array<{ x0: number; x1: number }>;
  }>>;
}

export const PLATE_CHARSET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** The recogniser works at 48 px; small plates are warped straight to that height (one
 * interpolation from the original pixels instead of two). */
const READ_HEIGHT = 48;

export interface CandidateReading {
  candidate: PlateCandidate;
  /** One reading per look at the candidate (as photographed, then with coloured emblems
   * faded); per character, the recogniser's options, best first (the decoded one included). */
  views: CharOption[][][];
}

/** The looks each line gets: the pixels as they are, and their brightest channel. */
const VIEWS = [(crop: RawImage) => crop, brightestChannel];

/** A character whose columns start or end this close to the crop's side (in crop heights) was
 * seen at the very edge: the line's box cut through it (a W read as N or H) or cut off the
 * character beyond it. */
const EDGE = 0.1;
/** How far a line cut at an edge is widened on that side, in line heights: one character and
 * its gap. */
const EDGE_WIDEN = 0.75;

/** Which ends of a read line touch the crop's sides. */
export function cutEnds(spans: ReadonlyArray<{ x0: number; x1: number }> | undefined, width: number, height: number): { left: boolean; right: boolean } {
  const first = spans?.[0];
  const last = spans?.[spans.length - 1];
  return {
    left: first !== undefined && first.x0 < EDGE * height,
    right: last !== undefined && last.x1 > width - EDGE * height,
  };
}

/** Cuts a line out straight, small ones enlarged to the read height; `stretch` widens the cut
 * further (1: the line's own proportions). */
export function cutLine(image: RawImage, quad: Quad, stretch = 1): RawImage {
  const { width: w, height: h } = quadSize(quad);
  const scale = h < READ_HEIGHT ? READ_HEIGHT / Math.max(1, h) : 1;
  return warpQuad(image, quad, Math.max(8, Math.round(w * scale * stretch)), Math.max(8, Math.round(h * scale)));
}

/** Plate fonts are condensed, and on a line a few pixels tall the recogniser takes a condensed
 * letter for a narrower look-alike (E for F, W for M or N, 4 for A). A small line it read with
 * a doubtful character is read once more cut this much wider, as photographed: an extra look
 * the grammars choose from (in place of the first look, the wider cut wins and loses small
 * plates about equally; averaged with it, it changes nothing). */
export const WIDER_LOOK_STRETCH = 1.25;
/** A character read below this is doubtful; plate-length readings only (four characters or more). */
const DOUBTFUL_BELOW = 0.75;
/** Condensed type: the first look's crop is at most this many crop heights wide per character
 * read (US plates about 0.45-0.55 in the crops looked at; Brazilian ones, in wider type,
 * 0.7-0.8, and there a wider cut tipped a round leading O to D). */
const CONDENSED_PITCH = 0.6;

/** A one-line candidate whose line is small (under the read height in reference pixels: see
 * referenceScale; `scale` is the photo's), in condensed type, whose first look (read from
 * `crop`) holds a plate-length reading with a doubtful character. The recogniser sees every
 * line at the read height, so a line of an upscaled photo, cut taller, shows it no more detail
 * than the same line of the original, which it had to enlarge. */
export function wantsWiderLook(candidate: PlateCandidate, firstLook: readonly CharOption[][], crop: { width: number; height: number }, scale = 1): boolean {
  const [line] = candidate.lines;
  return candidate.lines.length === 1 && quadSize(line!).height * scale < READ_HEIGHT && firstLook.length >= 4
    && crop.width / (firstLook.length * crop.height) <= CONDENSED_PITCH
    && firstLook.some((c) => topProb(c) < DOUBTFUL_BELOW);
}

/** The looks at a line cut at an end, given `wide`, the same looks at it widened there (the
 * brightest channel only if the line got one). Where the widened line reads as many characters,
 * the cut showed part of a character rather than hid one: the narrow looks read that part (an S
 * cut to a 9, which a format may even prefer), so the widened looks take their place. Else the
 * widened line's first look joins them and the grammars choose (its brightest channel would only
 * add readings of a line the box may not belong to: a badge read as a plate). */
export function widenedLooks(narrow: readonly CharOption[][][], wide: readonly CharOption[][][]): CharOption[][][] {
  if (wide.length === 0) return [...narrow];
  if (narrow[0] && readsAsMany(wide[0]!, narrow[0])) return [...wide, ...narrow.slice(wide.length)];
  return [...narrow, wide[0]!];
}

/** The widened line read as many characters as the narrow one: the cut showed part of one. */
function readsAsMany(wide: readonly CharOption[][], narrow: readonly CharOption[][]): boolean {
  return wide.length === narrow.length;
}

export interface RereadOptions {
  /** Margin around each line, in line heights; `closeUpX` at the ends of close-up lines
   * (default CLOSE_UP_PAD_X). */
  padding?: { x: number; y: number; closeUpX?: number };
  /** Decides from the first look (as photographed) whether a candidate also gets the second
   * (brightest channel); `firstViews` holds every candidate's first look, by index. Default:
   * every candidate gets both. */
  secondLook?: (firstView: CharOption[][], candidate: PlateCandidate, firstViews: readonly CharOption[][][]) => boolean;
  /** Narrowest recogniser input in columns at height 48 (RecognizeOptions.minWidth; default the
   * recogniser's own). */
  minWidth?: number;
  /** Read each line once, as photographed: no brightest channel, widened or wider cut. */
  firstLookOnly?: boolean;
}

/** Reads every line of every candidate, restricted to plate characters (small print beside the
 * number, such as a stacked type code, is cut off first): first as photographed, in one batch,
 * then the candidates `secondLook` asks for with their brightest channel; lines cut at an edge
 * widened there, and small doubtful lines cut wider (see WIDER_LOOK_STRETCH). */
export async function rereadCandidates(
  image: RawImage,
  candidates: readonly PlateCandidate[],
  ocr: CropRecognizer,
  options: RereadOptions = {},
): Promise<CandidateReading[]> {
  const reread = new Rereading(image, candidates, ocr, options.padding ?? { x: 0.1, y: 0.05 }, options.minWidth);
  const all = candidates.map((_, i) => i);
  const ends = await reread.firstLooks();
  if (options.firstLookOnly) return candidates.map((candidate, i) => ({ candidate, views: [reread.views[i]![0]!] }));
  const firstViews = all.map((i) => reread.views[i]![0]!);
  // A grey line (an infrared night shot) is its own brightest channel: a second look would read
  // the same pixels again.
  const again = (options.secondLook ? all.filter((i) => options.secondLook!(firstViews[i]!, candidates[i]!, firstViews)) : all)
    .filter((i) => reread.lines[i]!.some(hasColour));
  const cutAtEnd = all.filter((i) => ends[i]!.left || ends[i]!.right);
  const scale = referenceScale(image);
  // Every look after the first depends on the first alone: all are read at once (the recogniser
  // may have several threads), then added in a fixed order.
  const [, widened, wider] = await Promise.all([
    reread.readView(1, again),
    reread.widened(cutAtEnd, ends, again),
    reread.readEach(all.filter((i) => wantsWiderLook(candidates[i]!, firstViews[i]!, reread.lines[i]![0]!, scale)),
      (i) => reread.cut(candidates[i]!, candidates[i]!.lines[0]!, WIDER_LOOK_STRETCH)),
  ]);
  const looks = candidates.map((_, i) => reread.views[i]!.filter((v, k) => k === 0 || again.includes(i)));
  for (const i of cutAtEnd) {
    const wide = [widened.photos.get(i)!, ...(widened.bright.has(i) ? [widened.bright.get(i)!] : [])];
    looks[i] = widenedLooks(looks[i]!, wide);
  }
  for (const [i, look] of wider) looks[i]!.push(look);
  return candidates.map((candidate, i) => ({ candidate, views: looks[i]! }));
}

type Decoded = Awaited<ReturnType<CropRecognizer['recognizeCrops']>>[number];
type Ends = { left: boolean; right: boolean };

/** Characters read where the crop holds only a separator mark are left out (see separatorMarks). */
function charOptions(d: Decoded, crop: RawImage): CharOption[][] {
  const marks = separatorMarks(crop, d.charSpans);
  return [...d.text].flatMap((ch, n) => {
    if (marks[n]) return [];
    const alts = d.alternatives[n] ?? [];
    return [[{ char: ch, prob: d.charConfidences[n] ?? 0 }, ...alts.filter((a) => a.char !== ch)]];
  });
}

/** One rereadCandidates call: the candidates' line crops and the looks read so far. */
class Rereading {
  /** Each candidate's line crops, as photographed. */
  readonly lines: RawImage[][];
  /** Per candidate, per view (VIEWS), the characters read. */
  readonly views: CharOption[][][][];
  /** Crops whose ends were cut at small print: a character at such an end was not cut through,
   * and widening the line there would only bring the small print back. */
  private readonly trimmed = new Map<RawImage, Ends>();

  constructor(
    private readonly image: RawImage,
    private readonly candidates: readonly PlateCandidate[],
    private readonly ocr: CropRecognizer,
    private readonly padding: NonNullable<RereadOptions['padding']>,
    private readonly minWidth?: number,
  ) {
    this.lines = candidates.map((c) => c.lines.map((line) => this.cut(c, line)));
    this.views = candidates.map(() => VIEWS.map(() => []));
  }

  /** A line's crop, cut down to the number where small print sits beside it. */
  cut(c: PlateCandidate, line: Quad, stretch = 1): RawImage {
    // Small print is looked for in the usual margin, close-ups included (most plates in a
    // scene are small enough to get one): a close-up's wider margin takes in the plate's edge
    // (an EU band, a frame), so close-ups without small print get that margin instead.
    const { image, padding } = this;
    const usual = toCharacterRows(cutLine(image, padQuad(line, padding.x, padding.y), stretch));
    const span = numberColumns(usual);
    if (span) {
      const number = cropRect(usual, span.x0, 0, span.x1 - span.x0, usual.height);
      this.trimmed.set(number, { left: span.x0 > 0, right: span.x1 < usual.width });
      return number;
    }
    return c.closeUp ? cutLine(image, padQuad(line, Math.max(padding.x, padding.closeUpX ?? CLOSE_UP_PAD_X), padding.y), stretch) : usual;
  }

  /** Small batches: the recogniser's cost per crop grows with the batch on two cores. */
  private recognize(crops: RawImage[]) {
    return this.ocr.recognizeCrops(crops, { charset: PLATE_CHARSET, batchSize: 2, minWidth: this.minWidth });
  }

  /** Every candidate's first look (as photographed), and which ends of each one-line candidate's
   * crop a character touches. */
  async firstLooks(): Promise<Ends[]> {
    const ends = this.candidates.map(() => ({ left: false, right: false }));
    await this.readView(0, this.candidates.map((_, i) => i), (i, d, crop) => {
      if (this.candidates[i]!.lines.length !== 1) return;
      const end = cutEnds(d.charSpans, crop.width, crop.height);
      const small = this.trimmed.get(crop);
      ends[i] = small ? { left: end.left && !small.left, right: end.right && !small.right } : end;
    });
    return ends;
  }

  /** Reads view `v` (VIEWS) of every line of the candidates `which` names. */
  async readView(v: number, which: readonly number[], onRead?: (i: number, d: Decoded, crop: RawImage) => void): Promise<void> {
    const crops: RawImage[] = [];
    const owner: number[] = [];
    for (const i of which) for (const crop of this.lines[i]!) {
      crops.push(VIEWS[v]!(crop));
      owner.push(i);
    }
    if (crops.length === 0) return;
    const decoded = await this.recognize(crops);
    decoded.forEach((d, k) => {
      const i = owner[k]!;
      this.views[i]![v]!.push(...charOptions(d, crops[k]!));
      onRead?.(i, d, crops[k]!);
    });
  }

  /** The candidates `which` names read from the crops `crop` gives, by candidate. */
  async readEach(which: readonly number[], crop: (i: number) => RawImage): Promise<Map<number, CharOption[][]>> {
    const out = new Map<number, CharOption[][]>();
    if (which.length === 0) return out;
    const crops = which.map(crop);
    const decoded = await this.recognize(crops);
    decoded.forEach((d, k) => out.set(which[k]!, charOptions(d, crops[k]!)));
    return out;
  }

  /** A one-line candidate read with a character at a side of its crop: once more, widened on
   * that side, as photographed; where that reads as many characters, in the brightest channel
   * too if the line got it (`again`), and the widened looks take the narrow ones' place (see
   * widenedLooks). */
  async widened(cutAtEnd: readonly number[], ends: readonly Ends[], again: readonly number[]) {
    const wideCrops = new Map(cutAtEnd.map((i) => {
      const { left, right } = ends[i]!;
      return [i, this.cut(this.candidates[i]!, widenQuad(this.candidates[i]!.lines[0]!, left ? EDGE_WIDEN : 0, right ? EDGE_WIDEN : 0))];
    }));
    const photos = await this.readEach(cutAtEnd, (i) => wideCrops.get(i)!);
    // Only a line the widened looks will replace gets their brightest channel (widenedLooks).
    const whole = cutAtEnd.filter((i) => readsAsMany(photos.get(i)!, this.views[i]![0]!));
    const bright = await this.readEach(whole.filter((i) => again.includes(i)), (i) => brightestChannel(wideCrops.get(i)!));
    return { photos, bright };
  }
}
