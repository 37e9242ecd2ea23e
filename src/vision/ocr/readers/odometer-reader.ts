import type { TextReading } from '../ocr.types.js';
import type { RawImage } from '../../image/decode.js';
import { cropRect, rotateQuarter, toGray } from '../../image/warp.js';
import { quadBounds } from '../geometry.js';
import type { CharSpan } from '../ctc-decode.js';
import type { OcrEngine } from '../ocr-engine.js';
import type { TextLine } from '../ocr.types.js';
import { type DigitRead, type PassedOverWheel, rowReading } from './odometer-row-reading.js';
import { mergeDigitRuns, rankOdometerLines, type RowPiece, withScaleLabelsApart } from './odometer-rows.js';
import { type Cell, drumCells, HALF_TURN, halfTurnedTenths, ROLL_SHIFTS, rereadLastCell, rolledTenths, shiftedTenthsLine, tenthsOfShiftedRead, unsureDrumTenths } from './odometer-tenths.js';

const OPTIONS = {
  minConfidence: 0.3,
  // Dashboards are photographed upright, and the angle classifier turns drum digits upside down
  // (016603 read as 0509910); vertical text does not occur on an odometer.
  detectUpsideDown: false,
  vertical: false,
} as const;

function pieces(lines: TextLine[]): RowPiece[] {
  return lines.map((l) => {
    const b = quadBounds(l.box);
    return { text: l.text, confidence: l.confidence, charConfidences: l.charConfidences, charSpans: spansInImage(l), x: b.x0, y: b.y0, w: b.x1 - b.x0, h: b.y1 - b.y0 };
  });
}

/** A line's character spans in image x: along the box's top edge, projected on the x axis. */
function spansInImage(l: TextLine): CharSpan[] | undefined {
  const [a, b] = l.box;
  const length = Math.hypot(b.x - a.x, b.y - a.y);
  if (!l.charSpans || length === 0) return undefined;
  const along = (b.x - a.x) / length;
  return l.charSpans.map((s) => ({ x0: a.x + s.x0 * along, x1: a.x + s.x1 * along }));
}

/**
 * The mileage on a dashboard photo. A 1280 px detector pass finds the digit rows (odometer digits
 * are small on a dashboard photo), the row logic picks the odometer, then the row is read again,
 * digits only, from a crop that reaches right to the next text: the first pass often leaves out
 * the tenths wheel (a different colour or boxed) and reads drum digits as letters.
 */
export async function readOdometer(engine: OcrEngine, image: RawImage): Promise<TextReading[]> {
  const upright = await readTurned(engine, image, 0);
  if (upright) return [upright.reading];
  // Nothing on the upright photo: a dashboard photographed with the phone held sideways. Each
  // quarter turn is read and the better-ranked odometer kept (the other way round is upside
  // down). A turned view is a guess, so its row must read surely: turned, an upright dashboard's
  // dial labels and LCD segments make short unsure digit rows (10100 at 0.36).
  const turned = [];
  for (const t of [1, 3]) turned.push(await readTurned(engine, image, t));
  const best = turned.filter((r) => r !== undefined && r.firstConfidence >= SURE_TURNED).sort((a, b) => b!.score - a!.score)[0];
  return best ? [best.reading] : [];
}

/** How sure the first pass must be of a row found on a quarter-turned photo. */
const SURE_TURNED = 0.9;

/** The odometer read from the image turned `turns` quarters counter-clockwise; its box in the
 * upright image's pixels. */
async function readTurned(engine: OcrEngine, image: RawImage, turns: number): Promise<{ reading: TextReading; score: number; firstConfidence: number } | undefined> {
  const view = rotateQuarter(image, turns);
  const all = withScaleLabelsApart(mergeDigitRuns(pieces(await engine.readLines(view, { detLimitSide: 1280, ...OPTIONS }))));
  const top = rankOdometerLines(all)[0];
  if (!top) return undefined;
  const closeUp = await rereadRow(engine, view, top.piece, top.value, all);
  const chosen = closeUp ?? { value: top.value, confidence: top.confidence };
  const box = unturnedBox(top.piece, turns, image);
  return { reading: { value: chosen.value, confidence: chosen.confidence, orientation: 'horizontal', box }, score: top.score, firstConfidence: top.confidence };
}

/** A box found in the image turned `turns` quarters counter-clockwise (see rotateQuarter), in the
 * upright image's pixels. */
export function unturnedBox(p: { x: number; y: number; w: number; h: number }, turns: number, upright: { width: number; height: number }): { xmin: number; ymin: number; xmax: number; ymax: number } {
  const [x0, y0, x1, y1] = [p.x, p.y, p.x + p.w, p.y + p.h];
  const t = ((turns % 4) + 4) % 4;
  const { width: w, height: h } = upright;
  // Inverse of rotateQuarter's mapping, applied to the corners.
  const [a, b, c, d] = t === 0 ? [x0, y0, x1, y1] : t === 1 ? [w - y1, x0, w - y0, x1] : t === 2 ? [w - x1, h - y1, w - x0, h - y0] : [y0, h - x1, y1, h - x0];
  return { xmin: Math.round(a), ymin: Math.round(b), xmax: Math.round(c), ymax: Math.round(d) };
}

/** Reads the row's digits again, digits only: the box as detected, and widened to the right up
 * to the next text on the row (where a tenths wheel the box left out sits). Both keep the box's
 * height: the detector's box already has a margin, and more takes in the scale labels around
 * the drum window (a 70 beside the tenths wheel read as one more digit). */
export async function rereadRow(engine: OcrEngine, image: RawImage, p: RowPiece, first: string, all: readonly RowPiece[]): Promise<{ value: string; confidence: number } | undefined> {
  const onRow = all.filter((q) => q !== p && Math.abs(q.y + q.h / 2 - (p.y + p.h / 2)) < p.h * 0.5);
  const nextRight = Math.min(...onRow.filter((q) => q.x >= p.x + p.w).map((q) => q.x));
  const right = Math.min(image.width, p.x + p.w + p.h * 1.0, nextRight);
  const [boxed, widened] = await engine.recognizeCrops([cropRect(image, p.x, p.y, p.w, p.h), cropRect(image, p.x, p.y, right - p.x, p.h)], { charset: '0123456789' });
  if (!boxed || !widened) return undefined;
  // The first pass's per-character confidences and places line up with its reading only when it
  // read digits alone; its places are moved into the crops, which start at the box's corner.
  const digitsAlone = p.text === first;
  const left = Math.max(0, Math.floor(p.x));
  const firstRead = { text: first, confidences: digitsAlone ? p.charConfidences : undefined, spans: digitsAlone ? p.charSpans?.map((s) => ({ x0: s.x0 - left, x1: s.x1 - left })) : undefined };
  const read = (d: typeof boxed) => ({ text: d.text, confidences: d.charConfidences, spans: d.charSpans });
  const row = rowReading(firstRead, read(boxed), read(widened), p.x + p.w - left);
  if (!row) return undefined;
  const value = row.read && row.other ? await tenthsReread(engine, image, p, row.read, row.other, row.value) : row.value;
  // A wheel the digits-only read passed over, read as a half-turned one; left out unless settled.
  const passedOver = row.passedOver && row.read?.spans ? await halfTurnedRead(engine, image, p, row.read.spans, row.passedOver) : undefined;
  return { value: value + (passedOver ?? ''), confidence: row.widened ? widened.confidence : boxed.confidence };
}

/** The reading with an unsure last digit read again (see odometer-tenths) when the read it came
 * from (cleaned as the reading was) ends with it: not a label the row logic dropped. A digit the
 * first pass settled carries the first pass's confidence. First the tenths cell shifted up and
 * down (a half-turned wheel), else matched against the drum's own digits. */
async function tenthsReread(engine: OcrEngine, image: RawImage, p: RowPiece, source: DigitRead, other: DigitRead, value: string): Promise<string> {
  const { text, confidences: sourceConfidences, spans } = source;
  const aligned = text.endsWith(value) || (text.length === value.length && text.endsWith(value.slice(-1)));
  if (!spans || !sourceConfidences || !aligned) return value;
  // The other crop's read of the same last digit, when it lines up: a wheel half turned reads
  // surely in one crop and unsurely in the other.
  const otherLast = other.text.length === text.length && other.text.endsWith(text.slice(-1)) ? other.confidences?.at(-1) : undefined;
  const confidences = [...sourceConfidences.slice(0, -1), Math.min(sourceConfidences.at(-1) ?? 0, otherLast ?? 1)];
  const read = { text, confidences, spans };
  if (!unsureDrumTenths(read)) return value;
  const origin = cropOrigin(p);
  const digit = (await rolledTenthsRead(engine, image, read.spans, origin)) ?? rereadLastCell(() => ({ data: toGray(image), width: image.width, height: image.height }), read, origin);
  return digit ? value.slice(0, -1) + digit : value;
}

/** Where the row's digits-only crops sit in the image: both start at the box's corner (cropRect
 * floors it) and keep its height. */
const cropOrigin = (p: RowPiece): Cell => ({ x: Math.max(0, Math.floor(p.x)), y: Math.max(0, Math.floor(p.y)), w: 0, h: Math.round(p.h) });

/** The two drum cells before the last one, as one cell: the context a shifted view of the last
 * wheel is read after. */
const contextBefore = (cells: readonly Cell[]): Cell => {
  const n = cells.length;
  return { ...cells[n - 3]!, w: cells[n - 2]!.x + cells[n - 2]!.w - cells[n - 3]!.x };
};

/** How a view of a drum's last wheel is cut (see shiftedTenthsLine): moved up or down by `shift`
 * row heights, as it is or inverted. */
interface WheelView { shift: number; invert: boolean }

/** The last wheel of the drum `spans` stand for, read digits only in each of `views` after the
 * two drum cells before it: per view, its digit there (undefined where none was read); undefined
 * when the drum has fewer than three cells. */
async function shiftedWheelReads(engine: OcrEngine, image: RawImage, spans: readonly CharSpan[], origin: Cell, views: readonly WheelView[]) {
  const cells = drumCells(spans, origin);
  const n = cells.length;
  if (n < 3) return undefined;
  const context = contextBefore(cells);
  const lines = views.map((v) => shiftedTenthsLine(image, context, cells[n - 1]!, v.shift, v.invert));
  const reads = await engine.recognizeCrops(lines, { charset: '0123456789' });
  const cellX = Math.round(context.w);
  return reads.map((d) => (d.charSpans ? tenthsOfShiftedRead({ text: d.text, confidences: d.charConfidences, spans: d.charSpans }, cellX) : undefined));
}

/** The tenths digit read from the last cell shifted by each of ROLL_SHIFTS, after the two drum
 * cells before it; undefined unless the sure reads agree. */
async function rolledTenthsRead(engine: OcrEngine, image: RawImage, spans: readonly CharSpan[], origin: Cell): Promise<string | undefined> {
  // Both colours: a tenths wheel is often the drum's colours inverted, and a glare over the
  // drum hides which way round from the pixels' brightness.
  const views = [false, true].flatMap((invert) => ROLL_SHIFTS.map((shift) => ({ shift, invert })));
  const reads = await shiftedWheelReads(engine, image, spans, origin, views);
  return reads && rolledTenths(reads);
}

/** The digit of a wheel the digits-only read passed over (see passedOverWheel) read as a
 * half-turned wheel: each half centred (HALF_TURN), as it is and inverted, after the two drum
 * cells before it; undefined unless the reads agree with the drum's rolling order (see
 * halfTurnedTenths), when the wheel stays left out as before. */
async function halfTurnedRead(engine: OcrEngine, image: RawImage, p: RowPiece, spans: readonly CharSpan[], wheel: PassedOverWheel): Promise<string | undefined> {
  const views = [-HALF_TURN, HALF_TURN].flatMap((shift) => [false, true].map((invert) => ({ shift, invert })));
  const reads = await shiftedWheelReads(engine, image, [...spans, { x0: wheel.centre, x1: wheel.centre }], cropOrigin(p), views);
  if (!reads) return undefined;
  const surest = (rs: typeof reads) => rs.filter((r) => r !== undefined).sort((a, b) => b!.confidence - a!.confidence)[0];
  return halfTurnedTenths(surest(reads.slice(0, 2)), surest(reads.slice(2)), wheel.digit);
}
