import { boatRegistration, isFleetNumber, trailerId } from '../../../domain/text/text-types.js';
import { type ReadChoices, resolveVin } from '../../../domain/text/vin.js';
import type { OcrType, TextReading } from '../ocr.types.js';
import type { RawImage } from '../../image/decode.js';
import type { OcrEngine } from '../ocr-engine.js';
import { extentOf, meanConfidence, neighbourGroups, placed, type Placed, sameLine } from './line-geometry.js';
import { best } from './pick.js';
import { readContainer } from './container-reader.js';
import { readOdometer } from './odometer-reader.js';

/** Detector input size per type, from bench:ocr: these types read as well at 960 as at 1280,
 * faster (container gate photos: 540 vs 671 ms median). Odometers and containers have their own readers. */
const DETECTOR_SIDE: Record<Exclude<OcrType, 'odometer' | 'shipping_container'>, number> = { vin: 960, trailer_id: 960, boat_reg_number: 960 };

/** Reads identifiers of one type from an image: all text lines, then the type's grammar picks,
 * corrects and validates. */
export async function readText(engine: OcrEngine, type: OcrType, image: RawImage): Promise<TextReading[]> {
  if (type === 'odometer') return readOdometer(engine, image);
  if (type === 'shipping_container') return readContainer(engine, image);
  const lines = placed(await engine.readLines(image, { detLimitSide: DETECTOR_SIDE[type], minConfidence: 0.3, pack: true }));
  switch (type) {
    case 'vin':
      return readVin(lines);
    case 'trailer_id':
      return best(lines.flatMap((p) => {
        const value = trailerId(p.line.text);
        return value ? [{ value, confidence: p.line.confidence, orientation: p.line.orientation, box: extentOf([p]), weight: trailerWeight(value, p) }] : [];
      }));
    case 'boat_reg_number':
      return best(neighbourGroups(lines, 3).flatMap((g) => {
        const value = boatRegistration(g.map((p) => p.line.text).join(' '));
        return value ? [{ value, confidence: meanConfidence(g), orientation: g[0]!.line.orientation, box: extentOf(g), weight: (/^[A-Z]{2} \d/.test(value) ? 2 : 1) * meanConfidence(g) / g.length }] : [];
      }));
  }
}

/** How strongly a line reads as the trailer's number: its glyphs' size (a line's height, a
 * stack's width: not its length, or the longest line of words would win), its confidence, and
 * its shape (a line of words holding a digit is a weaker candidate, however large it is painted). */
function trailerWeight(value: string, p: Placed): number {
  return Math.min(p.h, p.w) * p.line.confidence * (isFleetNumber(value) ? 1 : 0.5);
}

/** A window that needs more corrections than this to pass is words read as a VIN (a caption's
 * I, O and last letters all made digits), not a VIN misread. */
const MAX_VIN_CORRECTIONS = 3;

function readVin(lines: Placed[]): TextReading[] {
  const found: Array<TextReading & { corrections: number; checked: boolean; whole: boolean }> = [];
  // A VIN is printed on one line: its pieces (a box split at a sticker's edge) lie side by side.
  // A caption above it ("CHASSIS NO", "V.I.N.") is no part of it, though a window across both
  // passes for a VIN where the number itself was misread.
  const oneRow = (g: Placed[]) => g.every((p, k) => k === 0 || sameLine(g[k - 1]!, p));
  for (const g of neighbourGroups(lines, 2).filter(oneRow)) {
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
      // A window cut out of a longer word is weaker evidence than a word of its own.
      const whole = (start === 0 || alnum[start - 1]!.endsWord) && alnum[start + 16]!.endsWord;
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
