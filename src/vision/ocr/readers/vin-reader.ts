import type { RawImage } from '../../image/decode.js';
import { padQuad, type Quad, quadCentre, quadSize, widenQuad } from '../../image/quad.js';
import { type ReadChoices, resolveVin } from '../../../domain/text/vin.js';
import type { OcrEngine } from '../ocr-engine.js';
import type { ReadLinesOptions, TextLine, TextReading } from '../ocr.types.js';
import { fillThinBands } from '../../image/thin-bands.js';
import { readRow } from './row-reread.js';
import { extentOf, meanConfidence, neighbourGroups, placed, type Placed, sameLine } from './line-geometry.js';

/** VINs (ISO 3779) from an image's text lines: every 17-character window of each line and of
 * pieces side by side, corrected and checked (domain/text/vin.ts). Where none passes, the row
 * around a line that holds part of a number is read again whole: a stencilled or barred font
 * can break the text detector's box, which then holds only the number's last characters. Where
 * that reads none either, the photo is read again with thin bands across its strokes filled
 * (`readOptions`: as its lines were read). */
export async function readVin(engine: OcrEngine, image: RawImage, lines: Placed[], readOptions: ReadLinesOptions): Promise<TextReading[]> {
  const found = vinsIn(lines);
  if (found.length > 0) return found;
  for (const row of partialVinRows(lines).slice(0, 2)) {
    const d = await readRow(engine, image, row);
    if (!d || d.confidence < 0.3) continue;
    const line: TextLine = { ...d, box: row, orientation: 'horizontal', layout: 'upright' };
    const again = vinsIn(placed([line]));
    if (again.length > 0) return again;
  }
  // A stencilled number whose bridges run across every glyph: the detector boxed pieces, or
  // nothing. With the bands filled it boxes the line whole (dark ink first: most plates).
  for (const ink of ['dark', 'light'] as const) {
    const again = vinsIn(placed(await engine.readLines(fillThinBands(image, ink, bandRadius(image)), readOptions)));
    if (again.length > 0) return again;
  }
  return [];
}

/** Half the tallest band fillThinBands fills: a pixel per 250 of the photo's shorter side, 1 to
 * 4 (a stencil's bridges are a few pixels across a number on a photo of its plate). */
const bandRadius = (image: RawImage) => Math.max(1, Math.min(4, Math.round(Math.min(image.width, image.height) / 250)));

/** Above and below a row read again, in line heights. */
const ROW_PAD = 0.2;

/** Rows to read again, best first: around each line of 5 to 16 letters and digits that ends in
 * three digits (a VIN's serial does), grown along its own axis at its own character pitch: to
 * the left by the characters it lacks and one and a half more (wide letters, M and W, stand
 * wider than the digits the pitch was measured on), by one at the right, and by ROW_PAD above
 * and below. Along the line's axis, so a tilted plate's row is cut as a line, not as a box that
 * holds the caption too. */
export function partialVinRows(lines: readonly Placed[]): Quad[] {
  const rows: Array<{ quad: Quad; weight: number }> = [];
  for (const p of lines) {
    const text = alphanumerics(p);
    if (p.line.orientation !== 'horizontal' || text.length < 5 || text.length >= 17 || !/\d{3}$/.test(text)) continue;
    const { width, height } = quadSize(p.line.box);
    const charPitch = width / text.length;
    const pitch = charPitch / Math.max(1, height);
    const weight = p.line.confidence * text.length;
    rows.push({ quad: padQuad(widenQuad(p.line.box, (17 - text.length + 1.5) * pitch, pitch), 0, ROW_PAD), weight });
    // A piece further left on the same row (the detector broke the number at a smudge): the
    // row runs from that piece's left edge, along the line through both, which follows a tilt
    // that a short piece's own box can miss. Read first: it holds the most read characters.
    const first = leftPieceOf(p, lines, 17 - text.length, charPitch);
    if (first) {
      const joined: Quad = [first.line.box[0], p.line.box[1], p.line.box[2], first.line.box[3]];
      rows.push({ quad: padQuad(widenQuad(joined, 0, pitch), 0, ROW_PAD), weight: weight + first.line.confidence * alphanumerics(first).length });
    }
  }
  return rows.sort((a, b) => b.weight - a.weight).map((r) => r.quad);
}

/** How much wider than the digits a run of letters can stand (M and W): a piece's pitch is
 * measured on what it holds, often digits. */
const WIDE_LETTERS = 1.3;

const alphanumerics = (p: Placed) => p.line.text.replace(/[^A-Za-z0-9]/g, '');

/** The leftmost line that could begin the VIN whose end `p` holds: lying flat to p's left, with
 * its centre line, carried on, passing through p, and about as many characters away as the VIN
 * lacks (`missing`, at p's character pitch `pitch` in pixels), less what the piece itself holds. */
function leftPieceOf(p: Placed, lines: readonly Placed[], missing: number, pitch: number): Placed | undefined {
  const pLeft = Math.min(p.line.box[0].x, p.line.box[3].x);
  const fits = lines.filter((q) => {
    const n = alphanumerics(q).length;
    if (q === p || q.line.orientation !== 'horizontal' || n === 0 || n > missing) return false;
    const qRight = Math.max(q.line.box[1].x, q.line.box[2].x);
    const gap = pLeft - qRight;
    if (gap < 0 || gap > (missing - n + 2) * pitch * WIDE_LETTERS) return false;
    // q's centre line at p's left edge lies within p's height there.
    const [a, b] = [quadCentre([q.line.box[0], q.line.box[3]]), quadCentre([q.line.box[1], q.line.box[2]])];
    const y = b.y + ((pLeft - b.x) * (b.y - a.y)) / Math.max(1, b.x - a.x);
    return y >= Math.min(p.line.box[0].y, p.line.box[1].y) && y <= Math.max(p.line.box[2].y, p.line.box[3].y);
  });
  return fits.sort((a, b) => a.x - b.x)[0];
}

/** A window that needs more corrections than this to pass is words read as a VIN (a caption's
 * I, O and last letters all made digits), not a VIN misread. */
const MAX_VIN_CORRECTIONS = 3;

/** A group of lines as read, and again with each line a second reader read as another number
 * of characters (TextLine.otherReading) spelled that way instead: the two readers drop or split
 * different characters, and only a VIN's length and grammar can tell which one read it. */
function spellings(group: Placed[]): Placed[][] {
  return group.reduce<Placed[][]>((ways, p) => {
    const other = p.line.otherReading;
    const options = other ? [p, { ...p, line: { ...p.line, ...other, charSpans: undefined } }] : [p];
    return ways.flatMap((w) => options.map((o) => [...w, o]));
  }, [[]]);
}

/** The best VIN among the lines (see readVin). */
function vinsIn(lines: Placed[]): TextReading[] {
  const found: Array<TextReading & { corrections: number; checked: boolean; whole: boolean }> = [];
  // A VIN is printed on one line: its pieces (a box split at a sticker's edge) lie side by side.
  // A caption above it ("CHASSIS NO", "V.I.N.") is no part of it, though a window across both
  // passes for a VIN where the number itself was misread.
  const oneRow = (g: Placed[]) => g.every((p, k) => k === 0 || sameLine(g[k - 1]!, p));
  for (const g of neighbourGroups(lines, 2).filter(oneRow).flatMap(spellings)) {
    // Characters with their confidences, lines separated by a space.
    const chars = g.flatMap((p, k) => [...(k ? [{ c: ' ', p: 1, a: [] as ReadChoices[number] }] : []),
      ...[...p.line.text].map((c, i) => ({ c, p: p.line.charConfidences[i] ?? 0, a: p.line.alternatives[i] ?? [] }))]);
    // A label or a neighbouring word may share the line: drop a "VIN" label, then try every
    // 17-character window of what is left.
    const label = /^.*\bVIN\b[:#]?|^VIN(?=[A-Z0-9]{17})/i.exec(chars.map((x) => x.c).join(''));
    const rest = chars.slice(label ? label[0].length : 0);
    const alnum = rest.flatMap((x, i) => (/[A-Za-z0-9]/.test(x.c) ? [{ ...x, endsWord: !/[A-Za-z0-9]/.test(rest[i + 1]?.c ?? ' ') }] : []));
    const text = alnum.map((x) => x.c).join('');
    for (let start = 0; start + 17 <= text.length; start++) {
      const window = alnum.slice(start, start + 17);
      const r = resolveVin(text.slice(start, start + 17), window.map((x) => x.p), window.map((x) => x.a));
      // A window cut out of a longer word is weaker evidence than a word of its own: it is taken
      // only where its check digit holds as read (a VIN run into a neighbouring word). Where
      // characters had to change as well, the window is a misread line's best guess (on the
      // second generator's tuning draws, 2026-12-06, every one was wrong, and without them the
      // row read again found two of those VINs).
      const whole = (start === 0 || alnum[start - 1]!.endsWord) && alnum[start + 16]!.endsWord;
      if (!whole && !(r?.checked && r.corrections === 0)) continue;
      if (r?.valid && r.corrections <= MAX_VIN_CORRECTIONS) found.push({ value: r.vin, confidence: meanConfidence(g) * (1 - 0.1 * r.corrections), orientation: g[0]!.line.orientation, box: extentOf(g), corrections: r.corrections, checked: r.checked, whole });
    }
  }
  // A check digit that holds beats a shape that fits; then a whole word, fewer corrections,
  // then confidence.
  found.sort((a, b) => Number(b.checked) - Number(a.checked) || Number(b.whole) - Number(a.whole) || a.corrections - b.corrections || b.confidence - a.confidence);
  const unique = new Map<string, TextReading>();
  for (const f of found) if (!unique.has(f.value)) unique.set(f.value, { value: f.value, confidence: f.confidence, orientation: f.orientation, box: f.box! });
  return [...unique.values()].slice(0, 1);
}
