import { boatRegistration, odometerReading, trailerId } from '../../../domain/text/text-types.js';
import { resolveContainerCode, SIZE_TYPE } from '../../../domain/text/iso6346.js';
import { resolveVin } from '../../../domain/text/vin.js';
import type { OcrType, TextReading } from '../../../services/recognition/text-recognizer.port.js';
import type { RawImage } from '../../image/decode.js';
import type { OcrEngine } from '../ocr-engine.js';
import { charConfidences, joined, meanConfidence, neighbourGroups, placed, type Placed } from './line-geometry.js';

/** Detector input size per type, from bench:ocr: odometer digits are small on a dashboard
 * photo and need 1280 (35% vs 22% exact at 960); the other types read as well at 960, faster
 * (container gate photos: 540 vs 671 ms median). */
const DETECTOR_SIDE: Record<OcrType, number> = { odometer: 1280, vin: 960, shipping_container: 960, trailer_id: 960, boat_reg_number: 960 };

/** Reads identifiers of one type from an image: all text lines, then the type's grammar picks,
 * corrects and validates. */
export async function readText(engine: OcrEngine, type: OcrType, image: RawImage): Promise<TextReading[]> {
  const lines = placed(await engine.readLines(image, { detLimitSide: DETECTOR_SIDE[type], minConfidence: 0.3 }));
  switch (type) {
    case 'vin':
      return readVin(lines);
    case 'shipping_container':
      return readContainer(lines);
    case 'odometer':
      return best(lines.flatMap((p) => {
        const value = odometerReading(p.line.text);
        // The odometer is the most prominent long number on the dash.
        return value ? [{ value, confidence: p.line.confidence, orientation: p.line.orientation, weight: p.h * Math.min(value.length, 6) }] : [];
      }));
    case 'trailer_id':
      return best(lines.flatMap((p) => {
        const value = trailerId(p.line.text);
        return value ? [{ value, confidence: p.line.confidence, orientation: p.line.orientation, weight: Math.max(p.h, p.w) * p.line.confidence }] : [];
      }));
    case 'boat_reg_number':
      return best(neighbourGroups(lines, 3).flatMap((g) => {
        const value = boatRegistration(g.map((p) => p.line.text).join(' '));
        return value ? [{ value, confidence: meanConfidence(g), orientation: g[0]!.line.orientation, weight: (/^[A-Z]{2} \d/.test(value) ? 2 : 1) * meanConfidence(g) / g.length }] : [];
      }));
  }
}

function best(found: Array<TextReading & { weight: number }>): TextReading[] {
  const top = found.sort((a, b) => b.weight - a.weight)[0];
  return top ? [{ value: top.value, confidence: top.confidence, orientation: top.orientation }] : [];
}

function readVin(lines: Placed[]): TextReading[] {
  const found: Array<TextReading & { corrections: number; checked: boolean }> = [];
  for (const g of neighbourGroups(lines, 2)) {
    // A label or a neighbouring word may share the line: drop a "VIN" label, then try every
    // 17-character window.
    const text = joined(g).replace(/^.*\bVIN\b[:#]?|^VIN(?=[A-Z0-9]{17})/i, '').replace(/[^A-Za-z0-9]/g, '');
    const conf = charConfidences(g).filter((_, i) => /[A-Za-z0-9]/.test(joined(g).replace(/\s/g, '')[i] ?? ''));
    for (let start = 0; start + 17 <= text.length; start++) {
      const r = resolveVin(text.slice(start, start + 17), conf.length === text.length ? conf.slice(start, start + 17) : []);
      if (r?.valid) found.push({ value: r.vin, confidence: meanConfidence(g) * (1 - 0.1 * r.corrections), orientation: g[0]!.line.orientation, corrections: r.corrections, checked: r.checked });
    }
  }
  // A check digit that holds beats a shape that fits; then fewer corrections, then confidence.
  found.sort((a, b) => Number(b.checked) - Number(a.checked) || a.corrections - b.corrections || b.confidence - a.confidence);
  const unique = new Map<string, TextReading>();
  for (const f of found) if (!unique.has(f.value)) unique.set(f.value, { value: f.value, confidence: f.confidence, orientation: f.orientation });
  return [...unique.values()].slice(0, 1);
}

const WEIGHT_LABELS: Array<[RegExp, string]> = [
  [/MAX|GROSS|M\.?G\.?W/, 'Maximum Gross Weight'],
  [/TARE/, 'Tare or Container Weight'],
  [/NET|PAYLOAD|PAY ?LOAD/, 'Net or Payload Weight'],
];

function readContainer(lines: Placed[]): TextReading[] {
  const out: TextReading[] = [];
  // The code, possibly painted in parts (owner+category, serial, boxed check digit).
  let code: { value: string; confidence: number } | undefined;
  for (const g of neighbourGroups(lines, 3)) {
    const text = joined(g).replace(/[^A-Za-z0-9]/g, '');
    if (text.length !== 11 && text.length !== 10) continue;
    const last = g[g.length - 1]!.line;
    const checkConfidence = last.charConfidences[last.text.replace(/\s+$/, '').length - 1] ?? 1;
    const r = resolveContainerCode(text, checkConfidence);
    if (!r) continue;
    const confidence = meanConfidence(g) * (r.corrected ? 0.8 : 1);
    if (!code || confidence > code.confidence) code = { value: r.code, confidence };
  }
  if (code) out.push({ value: code.value, confidence: code.confidence, orientation: 'horizontal', label: 'Serial Number' });
  const sizeType = lines.find((p) => SIZE_TYPE.test(p.line.text.replace(/\s/g, '')));
  if (sizeType) out.push({ value: sizeType.line.text.replace(/\s/g, ''), confidence: sizeType.line.confidence, orientation: 'horizontal', label: 'Size and Type Codes' });
  // Weights: a number with KG or LBS, named by the label on its row or just above.
  let current: string | undefined;
  for (const p of lines) {
    const text = p.line.text.toUpperCase();
    const label = WEIGHT_LABELS.find(([re]) => re.test(text))?.[1];
    if (label) current = label;
    const m = /(\d{1,3}[.,]?\d{3})\s*(KGS?|LBS?)/.exec(text.replace(/\s+(?=\d)/g, ''));
    if (m && current) {
      out.push({ value: `${m[1]} ${m[2]!.startsWith('K') ? 'KG' : 'LBS'}`, confidence: p.line.confidence, orientation: 'horizontal', label: `${current} ${m[2]!.startsWith('K') ? 'KG' : 'LBS'}` });
    }
  }
  return out;
}
