import type { RawImage } from '../image/decode.js';
import { rotateQuarter, warpQuad } from '../image/warp.js';
import type { DecodedText } from './ctc-decode.js';
import { type Quad, quadSize, uprightQuad } from './geometry.js';
import { lengthenQuad, quadBounds } from '../image/quad.js';
import type { ReadLinesOptions, TextLine } from './ocr.types.js';
import { extendColumn } from './column-extension.js';
import { groupCharacterColumns, stackToLine } from './vertical-text.js';

/** How readLines (ocr-engine.ts) turns detected boxes into the crops it reads: each line cut
 * out, tall lines turned or stacked, and which of those layouts are read first, which after the
 * angle classifier, and which only when the first reading was weak. */

/** A detected line, cut out upright. */
export interface CutLine {
  box: Quad; orientation: TextLine['orientation']; crop: RawImage; column: boolean;
  /** A tall line cut longer by its width at each end that runs into no other text box, for the
   * stack reader: the text box often stops a character short of a column's end, and the reader,
   * unlike the box, sees characters. */
  longCrop?: RawImage;
}

/** One way of reading a line (as it is, turned, stacked), and what it read. */
export interface Variant {
  line: number; crop: RawImage; layout: TextLine['layout']; decoded?: DecodedText;
  /** A column for the stack reader (stack-reader.ts), not a line for the line recogniser. */
  column?: true;
  /** A reading that only votes for a text others read (preferAgreement): never the line's
   * reading by its score alone. */
  vote?: true;
}

/** The best reading of a line so far. */
export interface BestReading { d: DecodedText; layout: TextLine['layout']; score: number }

/** Tall boxes are vertical text (PaddleOCR uses the same 1.5 ratio to rotate crops). */
const VERTICAL_RATIO = 1.5;

/** Every box cut out of the image; with `vertical`, columns of single characters first, and every
 * box cut along its most horizontal edge (a steep one is then a tall crop, which is read turned
 * either way and as a stack). */
export function cutLines(image: RawImage, boxes: readonly Quad[], vertical: boolean, stackModel = false): CutLine[] {
  let quads = vertical ? boxes.map(uprightQuad) : [...boxes];
  let columns: Quad[] = [];
  if (vertical) ({ columns, rest: quads } = groupCharacterColumns(quads));
  const lines: CutLine[] = [];
  const all = [...columns, ...quads];
  for (const [k, box] of all.entries()) {
    const quad = vertical ? extendColumn(image, box) : box;
    const { width, height } = quadSize(quad);
    const cw = Math.max(1, Math.round(width));
    const chh = Math.max(1, Math.round(height));
    if (cw < 2 || chh < 2) continue;
    const crop = warpQuad(image, quad, cw, chh);
    const tall = vertical && chh >= cw * VERTICAL_RATIO;
    const longCrop = tall && stackModel ? cutLonger(image, quad, width, all.filter((_, j) => j !== k)) : undefined;
    lines.push({ box: quad, orientation: tall ? 'vertical' : 'horizontal', crop, column: k < columns.length, ...(longCrop ? { longCrop } : {}) });
  }
  return lines;
}

/** A column cut longer by `reach` at each end that runs into no other text box: there the
 * detector saw another piece of text (a size and type code under a container's number), which
 * is no character the column's box left out. */
function cutLonger(image: RawImage, quad: Quad, reach: number, others: readonly Quad[]): RawImage {
  const { width, height } = quadSize(quad);
  const own = quadBounds(quad);
  const free = (top: number, bottom: number) => {
    const end = quadBounds(lengthenQuad(quad, top, bottom));
    // The end alone: the lengthened box less the column's own span along its length.
    const part = top > 0 ? { ...end, y1: Math.max(end.y0, own.y0) } : { ...end, y0: Math.min(end.y1, own.y1) };
    const area = Math.max(1, (part.x1 - part.x0) * (part.y1 - part.y0));
    return others.every((o) => overlapArea(part, quadBounds(o)) < END_OVERLAP * area);
  };
  const top = free(reach, 0) ? reach : 0;
  const bottom = free(0, reach) ? reach : 0;
  return warpQuad(image, lengthenQuad(quad, top, bottom), Math.max(1, Math.round(width)), Math.max(1, Math.round(height + top + bottom)));
}

/** The share of a column's lengthened end another text box may cover before that end stays put. */
const END_OVERLAP = 0.1;

type Bounds = ReturnType<typeof quadBounds>;
const overlapArea = (a: Bounds, b: Bounds) => Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));

/** The first pass: horizontal crops as they are or turned 180 (`toClassify`: the angle
 * classifier decides), tall crops turned the quarter the classifier prefers and laid out as a
 * stack, columns of single characters laid side by side. The other quarter turn (`deferred`) is
 * read only for tall lines whose first reading is weak; `exhaustiveVertical` reads every turn. */
export function firstVariants(lines: readonly CutLine[], options: ReadLinesOptions, stackModel = false): { first: Variant[]; toClassify: Variant[]; deferred: Variant[] } {
  const first: Variant[] = [];
  const toClassify: Variant[] = [];
  const deferred: Variant[] = [];
  lines.forEach((l, line) => {
    if (l.orientation === 'horizontal') {
      const v: Variant = { line, crop: l.crop, layout: 'upright' };
      first.push(v);
      if (options.detectUpsideDown ?? true) toClassify.push(v);
      return;
    }
    const ccw: Variant = { line, crop: rotateQuarter(l.crop, 1), layout: 'rotated_ccw' };
    const stacked = stackToLine(l.crop);
    const stack: Variant | undefined = stacked ? { line, crop: stacked, layout: 'stacked' } : undefined;
    // A stack model reads the column itself, cut longer, beside the layouts below; the line
    // recogniser reads that longer cut laid out too, as a vote only (see preferAgreement).
    if (stackModel) {
      first.push({ line, crop: l.longCrop ?? l.crop, layout: 'stacked', column: true });
      const long = l.longCrop && stackToLine(l.longCrop);
      if (long) first.push({ line, crop: long, layout: 'stacked', vote: true });
    }
    if (options.exhaustiveVertical) {
      first.push(ccw, { line, crop: rotateQuarter(l.crop, 3), layout: 'rotated_cw' });
      if (stack) first.push(stack);
    } else if (l.column && stack) {
      first.push(stack);
      deferred.push(ccw);
    } else {
      // Rotated text and a stack of upright characters can both read confidently as the
      // other (a stack turned a quarter reads as a short word): read both, one turn only.
      first.push(ccw);
      toClassify.push(ccw);
      if (stack) first.push(stack);
    }
  });
  return { first, toClassify, deferred };
}

/** Turns over the variants the angle classifier flagged upside down. */
export function applyUpsideDown(variants: readonly Variant[], flags: readonly boolean[]): void {
  flags.forEach((flip, k) => {
    const v = variants[k]!;
    if (!flip) return;
    v.crop = rotateQuarter(v.crop, 2);
    v.layout = v.layout === 'rotated_ccw' ? 'rotated_cw' : 'upside_down';
  });
}

/** Keeps, per line, the reading that scores best: longer confident readings win (a rotated
 * stack often reads as one or two junk glyphs). */
export function keepBest(best: Map<number, BestReading>, variants: readonly Variant[], decoded: readonly DecodedText[]): void {
  variants.forEach((v, k) => {
    const d = decoded[k]!;
    v.decoded = d;
    const text = d.text.trim();
    const score = text.length === 0 ? 0 : d.confidence * Math.min(1, 0.5 + text.length / 8);
    const prev = best.get(v.line);
    if (!prev || score > prev.score) best.set(v.line, { d, layout: v.layout, score });
  });
}

/** Where two independent readings of a line agree (two layouts, or the stack reader and a
 * layout) and the best-scoring one is not among them, the agreeing text wins: two readers
 * seldom make one mistake, and a confident misreading by one of them (5 read as 6 laid out, at
 * 0.98) outscores the right reading it disagrees with. One layout read twice (a column laid out
 * as cut and cut longer) is one reader on nearly the same pixels: it agrees with itself. */
export function preferAgreement(best: Map<number, BestReading>, variants: readonly Variant[]): void {
  const byLine = new Map<number, Variant[]>();
  for (const v of variants) if (v.decoded && v.decoded.text.trim() !== '') byLine.set(v.line, [...(byLine.get(v.line) ?? []), v]);
  const text = (d: DecodedText) => d.text.replace(/\s+/g, '');
  const source = (v: Variant) => (v.column ? 'stack reader' : v.layout);
  for (const [line, vs] of byLine) {
    const current = best.get(line);
    if (!current) continue;
    const sourcesOf = (t: string) => new Set(vs.filter((v) => text(v.decoded!) === t).map(source)).size;
    if (sourcesOf(text(current.d)) >= 2) continue;
    const agreeing = vs.filter((v) => sourcesOf(text(v.decoded!)) >= 2);
    if (agreeing.length === 0) continue;
    const top = agreeing.reduce((a, b) => (b.decoded!.confidence > a.decoded!.confidence ? b : a));
    best.set(line, { d: top.decoded!, layout: top.layout, score: current.score });
  }
}

/** The second pass: the other layouts of lines whose first reading was weak, and every line the
 * classifier turned over read as it lies. */
export function secondVariants(lines: readonly CutLine[], first: readonly Variant[], deferred: readonly Variant[], best: ReadonlyMap<number, BestReading>): Variant[] {
  const weak = (line: number, d: DecodedText | undefined) => {
    if (!d) return true;
    const { width, height } = quadSize(lines[line]!.box);
    // A line of rotated characters holds at least about one character per 2 thicknesses.
    const expected = Math.max(width, height) / Math.max(1, Math.min(width, height)) / 2.5;
    return d.confidence < 0.85 || d.text.trim().length < Math.min(3, expected);
  };
  const second: Variant[] = [];
  for (const v of deferred) if (weak(v.line, best.get(v.line)?.d)) second.push(v);
  for (const v of first) {
    // The other way up, for every line the classifier turned over, the surer reading kept:
    // small text fools the classifier, and turned over W019 reads 6L0M at 0.93 (0.99 as it lies).
    if (v.layout === 'upside_down') second.push({ line: v.line, crop: lines[v.line]!.crop, layout: 'upright' });
    // The other quarter turn, when the classifier's choice read poorly (whatever the stack
    // read: a turned line laid out as a stack can read as confident junk).
    if ((v.layout === 'rotated_ccw' || v.layout === 'rotated_cw') && weak(v.line, v.decoded)) {
      second.push({ line: v.line, crop: rotateQuarter(v.crop, 2), layout: v.layout === 'rotated_ccw' ? 'rotated_cw' : 'rotated_ccw' });
    }
  }
  return second;
}

/** Each line's best reading at `minConfidence` or more, in reading order: top to bottom, then
 * left to right. */
export function readLinesOut(lines: readonly CutLine[], best: ReadonlyMap<number, BestReading>, minConfidence: number): TextLine[] {
  const out: TextLine[] = [];
  lines.forEach((l, i) => {
    const b = best.get(i);
    if (!b || b.d.text.trim() === '' || b.d.confidence < minConfidence) return;
    out.push({
      text: b.d.text,
      confidence: b.d.confidence,
      charConfidences: b.d.charConfidences,
      alternatives: b.d.alternatives,
      box: l.box,
      ...(b.layout === 'upright' && b.d.charSpans ? { charSpans: b.d.charSpans } : {}),
      orientation: l.orientation,
      layout: b.layout,
      ...(b.d.otherReading ? { otherReading: b.d.otherReading } : {}),
    });
  });
  return out.sort((a, b) => a.box[0].y - b.box[0].y || a.box[0].x - b.box[0].x);
}
