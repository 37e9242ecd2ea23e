import type { RawImage } from '../image/decode.js';
import { rotateQuarter, warpQuad } from '../image/warp.js';
import {
  createOnnxSession,
  OCR_MODEL_FILES,
  type OnnxSession,
  type OnnxSessionOptions,
  runSingle,
} from '../runtime/onnx-session.js';
import { prepareAngleBatch, upsideDownFlags } from './angle-classifier.js';
import { ctcGreedyDecode, type DecodedText } from './ctc-decode.js';
import { dbPostprocess } from './db-postprocess.js';
import { prepareDetectionInput } from './det-preprocess.js';
import { type CharTable, charsetMask, loadPpOcrCharTable } from './dictionary.js';
import { type Quad, quadSize } from './geometry.js';
import type { ReadLinesOptions, RecognizeOptions, TextLine } from './ocr.types.js';
import { prepareRecognitionBatch } from './rec-preprocess.js';
import { groupCharacterColumns, stackToLine } from './vertical-text.js';

export interface DetectOptions {
  detLimitSide?: number;
  detMinSide?: number;
  boxThreshold?: number;
  unclipRatio?: number;
}

export interface OcrEngine {
  /** Finds and reads every text line of an image. */
  readLines(image: RawImage, options?: ReadLinesOptions): Promise<TextLine[]>;
  /** Text boxes only, in image pixels, with the detector's score. */
  detect(image: RawImage, options?: DetectOptions): Promise<Array<{ quad: Quad; score: number }>>;
  /** Reads already-cut, upright, single-line crops (any size: they are scaled to height 48). */
  recognizeCrops(crops: readonly RawImage[], options?: RecognizeOptions): Promise<DecodedText[]>;
  /** Per crop: true when the angle classifier says it is upside down. */
  classifyUpsideDown(crops: readonly RawImage[]): Promise<boolean[]>;
}

export interface OcrEngineOptions extends OnnxSessionOptions {}

/** Tall boxes are vertical text (PaddleOCR uses the same 1.5 ratio to rotate crops). */
const VERTICAL_RATIO = 1.5;

/** Loads the three PP-OCR sessions once; call once per worker thread and reuse. */
export async function createOcrEngine(options: OcrEngineOptions = {}): Promise<OcrEngine> {
  const [det, rec, cls] = await Promise.all([
    createOnnxSession(OCR_MODEL_FILES.detection, options),
    createOnnxSession(OCR_MODEL_FILES.recognition, options),
    createOnnxSession(OCR_MODEL_FILES.angle, options),
  ]);
  const table = loadPpOcrCharTable();
  return new PpOcrEngine(det, rec, cls, table);
}

class PpOcrEngine implements OcrEngine {
  private readonly masks = new Map<string, Uint8Array>();

  constructor(
    private readonly det: OnnxSession,
    private readonly rec: OnnxSession,
    private readonly cls: OnnxSession,
    private readonly table: CharTable,
  ) {}

  async detect(image: RawImage, options: DetectOptions = {}): Promise<Array<{ quad: Quad; score: number }>> {
    const input = prepareDetectionInput(image, options.detLimitSide ?? 960, options.detMinSide ?? 0);
    const out = await runSingle(this.det, input.data, input.dims);
    const h = out.dims[2]!;
    const w = out.dims[3]!;
    const boxes = dbPostprocess(out.data, w, h, { boxThreshold: options.boxThreshold, unclipRatio: options.unclipRatio });
    return boxes.map((b) => ({
      score: b.score,
      quad: b.quad.map((p) => ({ x: p.x * input.scaleX, y: p.y * input.scaleY })) as Quad,
    }));
  }

  async recognizeCrops(crops: readonly RawImage[], options: RecognizeOptions = {}): Promise<DecodedText[]> {
    const batchSize = options.batchSize ?? 8;
    const mask = options.charset ? this.maskFor(options.charset) : undefined;
    // Similar widths in a batch waste less padding.
    const order = crops.map((c, i) => ({ i, r: c.width / Math.max(1, c.height) })).sort((a, b) => a.r - b.r);
    const results: DecodedText[] = new Array(crops.length);
    for (let s = 0; s < order.length; s += batchSize) {
      const slice = order.slice(s, s + batchSize);
      const batch = prepareRecognitionBatch(slice.map((o) => crops[o.i]!));
      const out = await runSingle(this.rec, batch.data, batch.dims);
      const [, frames = 0, classes = 0] = out.dims;
      slice.forEach((o, n) => {
        const probs = out.data.subarray(n * frames * classes, (n + 1) * frames * classes);
        results[o.i] = ctcGreedyDecode(probs, frames, classes, this.table.chars, { mask });
      });
    }
    return results;
  }

  async classifyUpsideDown(crops: readonly RawImage[]): Promise<boolean[]> {
    const flags: boolean[] = [];
    for (let s = 0; s < crops.length; s += 16) {
      const slice = crops.slice(s, s + 16);
      const batch = prepareAngleBatch(slice);
      const out = await runSingle(this.cls, batch.data, batch.dims);
      flags.push(...upsideDownFlags(out.data, slice.length));
    }
    return flags;
  }

  async readLines(image: RawImage, options: ReadLinesOptions = {}): Promise<TextLine[]> {
    const boxes = await this.detect(image, options);
    const vertical = options.vertical ?? true;
    let quads = boxes.map((b) => b.quad);
    let columns: Quad[] = [];
    if (vertical) ({ columns, rest: quads } = groupCharacterColumns(quads));

    interface Variant { line: number; crop: RawImage; layout: TextLine['layout'] }
    const lines: Array<{ box: Quad; orientation: TextLine['orientation'] }> = [];
    const variants: Variant[] = [];
    const horizontal: number[] = [];
    for (const quad of [...columns, ...quads]) {
      const { width, height } = quadSize(quad);
      const cw = Math.max(1, Math.round(width));
      const chh = Math.max(1, Math.round(height));
      if (cw < 2 || chh < 2) continue;
      const crop = warpQuad(image, quad, cw, chh);
      const line = lines.length;
      if (vertical && chh >= cw * VERTICAL_RATIO) {
        lines.push({ box: quad, orientation: 'vertical' });
        variants.push({ line, crop: rotateQuarter(crop, 1), layout: 'rotated_ccw' });
        variants.push({ line, crop: rotateQuarter(crop, 3), layout: 'rotated_cw' });
        const stacked = stackToLine(crop);
        if (stacked) variants.push({ line, crop: stacked, layout: 'stacked' });
      } else {
        lines.push({ box: quad, orientation: 'horizontal' });
        horizontal.push(variants.length);
        variants.push({ line, crop, layout: 'upright' });
      }
    }
    if ((options.detectUpsideDown ?? true) && horizontal.length > 0) {
      const flags = await this.classifyUpsideDown(horizontal.map((v) => variants[v]!.crop));
      flags.forEach((flip, k) => {
        if (!flip) return;
        const v = variants[horizontal[k]!]!;
        v.crop = rotateQuarter(v.crop, 2);
        v.layout = 'upside_down';
      });
    }
    const decoded = await this.recognizeCrops(variants.map((v) => v.crop), { charset: options.charset });
    const best = new Map<number, { d: DecodedText; layout: TextLine['layout']; score: number }>();
    variants.forEach((v, k) => {
      const d = decoded[k]!;
      const text = d.text.trim();
      // Longer confident readings win: a rotated stack often reads as one or two junk glyphs.
      const score = text.length === 0 ? 0 : d.confidence * Math.min(1, 0.5 + text.length / 8);
      const prev = best.get(v.line);
      if (!prev || score > prev.score) best.set(v.line, { d, layout: v.layout, score });
    });
    const minConfidence = options.minConfidence ?? 0.3;
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
        orientation: l.orientation,
        layout: b.layout,
      });
    });
    // Reading order: top to bottom, then left to right.
    return out.sort((a, b) => a.box[0].y - b.box[0].y || a.box[0].x - b.box[0].x);
  }

  private maskFor(charset: string): Uint8Array {
    let m = this.masks.get(charset);
    if (!m) {
      m = charsetMask(this.table, charset);
      this.masks.set(charset, m);
    }
    return m;
  }
}
