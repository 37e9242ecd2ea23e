import { type CharOptions, coerceContainerCode, containerCheckDigit, readSizeType, resolveContainerOptions, SIZE_TYPE } from '../../../domain/text/iso6346.js';
import type { TextReading } from '../ocr.types.js';
import type { RawImage } from '../../image/decode.js';
import { cropRect, rotateQuarter } from '../../image/warp.js';
import type { TextLine } from '../ocr.types.js';
import type { OcrEngine } from '../ocr-engine.js';
import { extentOf, meanConfidence, neighbourGroups, type Placed, placed, rectQuad, type Region } from './line-geometry.js';
import { findStackedColumns } from './stacked-columns.js';

/** Detector input for the first pass over a whole photo. */
const DETECTOR_SIDE = 960;
const ALNUM = /[A-Za-z0-9]/;

interface CodeFound {
  value: string;
  confidence: number;
  orientation: TextReading['orientation'];
  /** 0: valid as read; 1: corrected by runners-up or look-alikes; 2: check digit computed for a
   * reading that lacks it. Lower is more trustworthy. */
  rank: number;
  box: NonNullable<TextReading['box']>;
  /** How large its characters are painted: the median thickness of its lines (height of a
   * horizontal line, width of a vertical one), pixels. */
  charSize: number;
}

/** ISO 6346 container markings: the code (owner, category, serial, check digit), the size and
 * type code and the weights, with the spec's labels. The code is looked for in every run of
 * neighbouring lines; when none validates, the region around the best partial reading (an owner
 * code or a serial alone) is cut out and read again at full resolution. */
export async function readContainer(engine: OcrEngine, image: RawImage): Promise<TextReading[]> {
  let lines = placed(await engine.readLines(image, { detLimitSide: DETECTOR_SIDE, minConfidence: 0.3, pack: true }));
  let codes = findCodes(lines);
  if (codes.length === 0 || codes[0]!.rank > 0) {
    for (const region of partialCodeRegions(lines, image).slice(0, 2)) {
      codes = mergeCodes(codes, findCodes(await readRegion(engine, image, region)));
      if (codes[0]?.rank === 0) break;
    }
  }
  const side = Math.max(image.width, image.height);
  if (codes.length === 0 && side > DETECTOR_SIDE * 1.25) {
    // Nothing at all: the codes may be too small for the scaled-down pass (a yard seen from
    // afar). Detect again at the photo's own resolution.
    lines = placed(await engine.readLines(image, { detLimitSide: Math.min(2048, Math.ceil(side / 32) * 32), minConfidence: 0.3, pack: true }));
    codes = findCodes(lines);
    // Small codes painted as a stack of upright characters (a corner post seen from afar) are
    // invisible to the detector: look for such columns in the image itself.
    const columns = await readStackedColumns(engine, image);
    // Codes whose check digit holds add up (a yard shows many); a corrected guess gives way.
    if (columns.length > 0) codes = [...codes.filter((c) => c.rank === 0), ...columns].filter((c, i, xs) => xs.findIndex((d) => d.value === c.value) === i);
  }
  const out: TextReading[] = codes.map((c) => ({ value: c.value, confidence: c.confidence, orientation: c.orientation, label: 'Serial Number', box: c.box }));
  out.push(...otherFields(lines));
  return out;
}

/** The codes to report, most trustworthy first: every code read with its check digit holding
 * (a yard photo shows many), or else the single best corrected one. A code painted twice (the
 * door and the roof rail of a container seen from behind and above) is reported once, at its
 * largest marking: the one a person reading the photo would point at. */
export function findCodes(lines: Placed[]): CodeFound[] {
  const all = codeCandidates(lines).sort((a, b) => a.rank - b.rank || b.confidence - a.confidence);
  const valid = all.filter((c) => c.rank === 0);
  if (valid.length === 0) return all.slice(0, 1);
  const unique = new Map<string, CodeFound>();
  for (const c of valid) if (!unique.has(c.value)) unique.set(c.value, c);
  // The larger marking may be the one read less well (its boxed check digit missed): the value
  // holds from the valid reading, the place is the larger marking's.
  for (const c of all) {
    const known = unique.get(c.value);
    if (known && c.charSize > LARGER_MARKING * known.charSize) unique.set(c.value, { ...known, box: c.box, orientation: c.orientation, charSize: c.charSize });
  }
  return [...unique.values()];
}

/** Another marking of a code counts as larger when its characters are this much larger (the
 * same marking read in two groupings of its lines differs by a few pixels). */
const LARGER_MARKING = 1.25;

/** The median thickness of a group's lines (see CodeFound.charSize). */
function charSizeOf(g: Placed[]): number {
  const sizes = g.map((p) => (p.line.orientation === 'vertical' ? p.w : p.h)).sort((a, b) => a - b);
  return sizes[sizes.length >> 1] ?? 0;
}

/** Codes found again (a re-read) replace corrected guesses; valid codes add up. */
function mergeCodes(before: CodeFound[], again: CodeFound[]): CodeFound[] {
  if (again.length === 0) return before;
  if (before.length === 0 || again[0]!.rank < before[0]!.rank) return again;
  if (again[0]!.rank > before[0]!.rank) return before;
  if (before[0]!.rank > 0) return [before[0]!, again[0]!].sort((a, b) => b.confidence - a.confidence).slice(0, 1);
  return [...before, ...again].filter((c, i, xs) => xs.findIndex((d) => d.value === c.value) === i);
}

/** Codes read in columns of stacked characters (see findStackedColumns), each column on its
 * own: those whose check digit holds as read or after one change (a worn U read as 0). */
export async function readStackedColumns(engine: OcrEngine, image: RawImage): Promise<CodeFound[]> {
  const columns = findStackedColumns(image, MAX_COLUMNS);
  if (columns.length === 0) return [];
  // Turned a quarter counter-clockwise, a stack reads top to bottom (the recogniser reads small
  // characters lying on their side as well as upright ones).
  // Small batches: a batch is padded to its widest crop, and turned columns differ much in
  // length (same readings, about half the recogniser time for a yard's columns).
  const decoded = await engine.recognizeCrops(columns.map((c) => rotateQuarter(cropRect(image, c.x, c.y, c.w, c.h), 1)), { charset: CODE_CHARSET, batchSize: 2 });
  return decoded.flatMap((d, k) => {
    const c = columns[k]!;
    const box = rectQuad(c);
    if (d.confidence < 0.3) return [];
    const code = codeCandidates(placed([{ ...d, box, orientation: 'vertical', layout: 'stacked' }]), 1).filter((f) => f.rank <= 1).sort((a, b) => a.rank - b.rank || b.confidence - a.confidence)[0];
    return code ? [code] : [];
  });
}

/** Columns of stacked characters read at most: each costs a recogniser run. */
const MAX_COLUMNS = 8;

/** Every code in groups of neighbouring lines (an 11-character window of their characters),
 * correcting at most `maxChanges` characters of a reading of exactly 11. */
function codeCandidates(lines: Placed[], maxChanges = 2): CodeFound[] {
  const found: CodeFound[] = [];
  for (const g of neighbourGroups(lines, 3)) {
    const chars = characterOptions(g);
    const orientation = g[0]!.line.orientation;
    const conf = meanConfidence(g);
    const charSize = charSizeOf(g);
    // A stray mark or two may stick to a code; a longer run is other text.
    for (let start = 0; start + 11 <= chars.length && chars.length <= 13; start++) {
      // With extra characters around, the window must hold as read: shifting a window and
      // correcting it too finds a check digit that holds in almost anything.
      const r = resolveContainerOptions(chars.slice(start, start + 11), chars.length > 11 ? 0 : maxChanges);
      // Extra characters around the code (a neighbour's paint) cost a little confidence.
      if (r) found.push({ value: r.code, confidence: conf * (r.changes ? 0.8 : 1) * (chars.length > 11 ? 0.95 : 1), orientation, rank: r.changes ? 1 : 0, box: extentOf(g), charSize });
    }
    // A stray mark read faintly at either end (a post edge, a bolt, a seam beside a vertical
    // code) would hold the rest to the strict rule above: without it the code is a reading of
    // its own, corrected like one, at a small cost in confidence.
    const core = trimFaintEnds(chars);
    if (core.length === 11 && chars.length > 11) {
      const r = resolveContainerOptions(core, maxChanges);
      if (r) found.push({ value: r.code, confidence: conf * (r.changes ? 0.8 : 1) * 0.9, orientation, rank: r.changes ? 1 : 0, box: extentOf(g), charSize });
    }
    if (chars.length === 10) {
      // The check digit is usually painted in its own box and is the part readers miss most.
      const ten = coerceContainerCode(`${chars.map((c) => c[0]!.char).join('')}0`)?.slice(0, 10);
      if (ten) found.push({ value: `${ten}${containerCheckDigit(ten)}`, confidence: conf * 0.7, orientation, rank: 2, box: extentOf(g), charSize });
    }
  }
  return found;
}

/** A character read with less than this probability at the end of a run is taken for a mark. */
const FAINT = 0.35;

/** The characters without faint ones at either end. */
function trimFaintEnds(chars: CharOptions[]): CharOptions[] {
  let a = 0;
  let b = chars.length;
  while (a < b && (chars[a]![0]?.prob ?? 0) < FAINT) a++;
  while (b > a && (chars[b - 1]![0]?.prob ?? 0) < FAINT) b--;
  return chars.slice(a, b);
}

/** Per letter or digit of a group of lines, the recogniser's first choice and runners-up. */
function characterOptions(g: Placed[]): CharOptions[] {
  return g.flatMap((p) => {
    const { text, charConfidences, alternatives } = p.line;
    return [...text].flatMap((c, i) => {
      if (!ALNUM.test(c)) return [];
      const alts = (alternatives[i] ?? []).filter((a) => a.char !== c);
      return [[{ char: c, prob: charConfidences[i] ?? 0 }, ...alts]];
    });
  });
}

/** Where the rest of a code should be, around a line that holds part of one: an owner code
 * (three letters and U, J or Z), the start of a code (letters running into digits) or a serial
 * (five to seven digits). `wide` extends the line
 * along its direction by the characters missing, at the line's own pitch (forwards only when it
 * starts with the owner code), and across it by its
 * thickness (room for a detector); `tight` extends it the same way along, barely across (one line
 * for the recogniser). */
export function partialCodeRegions(lines: Placed[], image: { width: number; height: number }): Array<{ wide: Region; tight: Region; orientation: TextLine['orientation']; layout: TextLine['layout'] }> {
  const found: Array<{ wide: Region; tight: Region; orientation: TextLine['orientation']; layout: TextLine['layout']; weight: number }> = [];
  const clamp = (r: Region): Region => {
    const x = Math.max(0, Math.floor(r.x));
    const y = Math.max(0, Math.floor(r.y));
    return { x, y, w: Math.min(image.width, Math.ceil(r.x + r.w)) - x, h: Math.min(image.height, Math.ceil(r.y + r.h)) - y };
  };
  for (const p of lines) {
    const text = p.line.text.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
    // Letters then digits (an owner code, perhaps misread, running into the serial), or the
    // serial's digits alone.
    const partial = /^[A-Z]{3}[A-Z0-9]?\d/.test(text) || /^[A-Z]{3}[UJZ]$/.test(text) || /\d{5,7}/.test(text.replace(/[OD]/g, '0').replace(/[IL]/g, '1'));
    // The whole owner code, category letter included, opens the line.
    const ownerFirst = /^[A-Z]{3}[UJZ]/.test(text);
    // A weight (30480 KGS, 67200 LBS) has the serial's digits but is no part of a code.
    if (!partial || text.length >= 11 || text.length < 4 || /\d(KG|LB)/.test(text)) continue;
    const vertical = p.line.orientation === 'vertical';
    const along = vertical ? p.h : p.w;
    const across = vertical ? p.w : p.h;
    const pitch = along / text.length;
    const missing = pitch * (11 - text.length + 1.5);
    // A line that starts with the owner code misses the end of the code: extend it forwards
    // (down a column read top to bottom, right along a row), barely backwards, so the region
    // read whole holds the code and little else. A serial alone may miss either end.
    const backwardsFirst = p.line.layout === 'rotated_cw' || p.line.layout === 'upside_down';
    const [before, after] = !ownerFirst ? [missing, missing] : backwardsFirst ? [missing, pitch * 0.75] : [pitch * 0.75, missing];
    const region = (pad: number) => clamp(vertical
      ? { x: p.x - pad, y: p.y - before, w: p.w + 2 * pad, h: p.h + before + after }
      : { x: p.x - before, y: p.y - pad, w: p.w + before + after, h: p.h + 2 * pad });
    const wide = region(across);
    const tight = region(across * 0.15);
    if (wide.w > 8 && wide.h > 8) found.push({ wide, tight, orientation: p.line.orientation, layout: p.line.layout, weight: p.line.confidence * text.length });
  }
  return found.sort((a, b) => b.weight - a.weight);
}

/** Reads a region again at the photo's full resolution (the first pass saw it scaled down):
 * detected afresh, and also read whole as one line, turned the way its partial line read
 * (either quarter turn for a stack of upright characters), which joins a code the detector
 * split in pieces. Lines placed back in photo coordinates. */
export async function readRegion(engine: OcrEngine, image: RawImage, region: ReturnType<typeof partialCodeRegions>[number]): Promise<Placed[]> {
  const { wide: r, tight: t } = region;
  const side = Math.min(1280, Math.max(640, Math.ceil(Math.max(r.w, r.h) / 32) * 32));
  const detected = await engine.readLines(cropRect(image, r.x, r.y, r.w, r.h), { detLimitSide: side, minConfidence: 0.3, pack: true, charset: CODE_CHARSET });
  const tight = cropRect(image, t.x, t.y, t.w, t.h);
  const vertical = region.orientation === 'vertical';
  // The way the partial line read is the way its code reads; a stack of upright characters
  // may read either way.
  const turns: Array<[number, TextLine['layout']]> = vertical ? [[1, 'rotated_ccw'], [3, 'rotated_cw']] : [[0, 'upright'], [2, 'upside_down']];
  const ways = turns.filter(([, layout]) => region.layout === 'stacked' || layout === region.layout);
  const decoded = await engine.recognizeCrops(ways.map(([k]) => rotateQuarter(tight, k)), { charset: CODE_CHARSET });
  const lines: TextLine[] = [
    ...detected.map((l) => ({ ...l, box: l.box.map((q) => ({ x: q.x + r.x, y: q.y + r.y })) as TextLine['box'] })),
    ...decoded.map((d, k) => ({ ...d, box: rectQuad(t), orientation: region.orientation, layout: ways[k]![1] }) satisfies TextLine),
  ];
  return placed(lines.filter((l) => l.confidence >= 0.3));
}

const CODE_CHARSET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

const WEIGHT_LABELS: Array<[RegExp, string]> = [
  [/MAX|GROSS|M\.?G\.?W/, 'Maximum Gross Weight'],
  [/TARE/, 'Tare or Container Weight'],
  [/NET|PAYLOAD|PAY ?LOAD/, 'Net or Payload Weight'],
];

/** The size and type code and the weights: a number with KG or LBS, named by the label on its
 * row or just above. */
function otherFields(lines: Placed[]): TextReading[] {
  const out: TextReading[] = [];
  // A line that is the code as read first, else one with a look-alike or a sticker's glyphs.
  const sizeType = lines.find((p) => SIZE_TYPE.test(p.line.text.replace(/\s/g, ''))) ?? lines.find((p) => readSizeType(p.line.text));
  if (sizeType) out.push({ value: readSizeType(sizeType.line.text)!, confidence: sizeType.line.confidence, orientation: sizeType.line.orientation, label: 'Size and Type Codes', box: extentOf([sizeType]) });
  let current: string | undefined;
  for (const p of lines) {
    const text = p.line.text.toUpperCase();
    const label = WEIGHT_LABELS.find(([re]) => re.test(text))?.[1];
    if (label) current = label;
    const m = /(\d{1,3}[.,]?\d{3})\s*(KGS?|LBS?)/.exec(text.replace(/\s+(?=\d)/g, ''));
    if (m && current) {
      out.push({ value: `${m[1]} ${m[2]!.startsWith('K') ? 'KG' : 'LBS'}`, confidence: p.line.confidence, orientation: 'horizontal', label: `${current} ${m[2]!.startsWith('K') ? 'KG' : 'LBS'}`, box: extentOf([p]) });
    }
  }
  return out;
}
