import type { RawImage } from '../image/decode.js';
import {
  createOnnxSession,
  OCR_MODEL_FILES,
  type OnnxSession,
  type OnnxSessionOptions,
  runSingle,
} from '../runtime/onnx-session.js';
import { createSessionPool, inThreadRunner, type ModelRunner } from '../runtime/session-pool.js';
import { prepareAngleBatch, upsideDownFlags } from './angle-classifier.js';
import { ctcGreedyDecode, type DecodedText, trimSpaces } from './ctc-decode.js';
import { dbPostprocess } from './db-postprocess.js';
import { prepareDetectionInputAsync } from './det-preprocess.js';
import { FloatBufferPool } from './float-buffers.js';
import { type CharTable, charsetMask, loadPpOcrCharTable } from './dictionary.js';
import type { Quad } from './geometry.js';
import type { ReadLinesOptions, RecognizeOptions, TextLine } from './ocr.types.js';
import { packRecognitionLines, preparePackedLine, prepareRecognitionBatch, recWidth } from './rec-preprocess.js';
import type { StackRecognizer } from './stack-reader.js';
import { fuseReadings, withDroppedCharacter } from './fused-readings.js';
import { applyUpsideDown, type BestReading, cutLines, firstVariants, keepBest, preferAgreement, readLinesOut, secondVariants, type Variant } from './line-layouts.js';

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

export interface OcrEngineOptions extends OnnxSessionOptions {
  /** Recogniser sessions on worker threads of their own, beside the one on the calling thread
   * (0, the default: the calling thread's session alone, with `intraOpNumThreads`). */
  recognizerThreads?: number;
}

/** With recogniser threads the crops of one call are read side by side (see session-pool.ts):
 * 5-10% less CPU per photo, but on the 2-core machine 5-15% more time per plate photo in
 * alternating rounds, so by default the recogniser stays on the calling thread; a machine that
 * runs many photos at once and is short of CPU rather than of latency can turn them on. */
const DEFAULT_RECOGNIZER_THREADS = 0;

async function createRecognizer(options: OcrEngineOptions): Promise<ModelRunner> {
  const workers = options.recognizerThreads ?? DEFAULT_RECOGNIZER_THREADS;
  if (workers === 0) return inThreadRunner(await createOnnxSession(OCR_MODEL_FILES.recognition, options));
  // One intra-op thread per session: the sessions themselves fill the cores.
  const local = await createOnnxSession(OCR_MODEL_FILES.recognition, { ...options, intraOpNumThreads: 1 });
  return createSessionPool(OCR_MODEL_FILES.recognition, { ...options, workers, local });
}

/** Crops up to this wide (at height 48) are packed side by side when packing is asked for. */
const PACK_MAX_WIDTH = 320;

/** Loads the three PP-OCR sessions once; call once per worker thread and reuse. */
export async function createOcrEngine(options: OcrEngineOptions = {}): Promise<OcrEngine> {
  const [det, rec, cls] = await Promise.all([
    createOnnxSession(OCR_MODEL_FILES.detection, options),
    createRecognizer(options),
    createOnnxSession(OCR_MODEL_FILES.angle, options),
  ]);
  const table = loadPpOcrCharTable();
  return new PpOcrEngine(det, rec, cls, table);
}

class PpOcrEngine implements OcrEngine {
  private readonly masks = new Map<string, Uint8Array>();
  /** Detector inputs, reused from pass to pass (see FloatBufferPool). */
  private readonly detInputs = new FloatBufferPool();

  constructor(
    private readonly det: OnnxSession,
    private readonly rec: ModelRunner,
    private readonly cls: OnnxSession,
    private readonly table: CharTable,
  ) {}

  async detect(image: RawImage, options: DetectOptions = {}): Promise<Array<{ quad: Quad; score: number }>> {
    const input = await prepareDetectionInputAsync(image, options.detLimitSide ?? 960, options.detMinSide ?? 0, this.detInputs.take);
    let out: Awaited<ReturnType<typeof runSingle>>;
    try {
      out = await runSingle(this.det, input.data, input.dims);
    } finally {
      this.detInputs.give(input.data);
    }
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
    if (options.pack && crops.length > 1) {
      // Only short crops share a line: they gain most from it, and a long line (a whole code)
      // read beside other text can be swayed by it.
      const short = crops.map((c, i) => i).filter((i) => recWidth(crops[i]!, Infinity) <= PACK_MAX_WIDTH);
      if (short.length > 1) {
        const long = crops.map((c, i) => i).filter((i) => recWidth(crops[i]!, Infinity) > PACK_MAX_WIDTH);
        // Both at once: with recogniser threads, the long crops need not wait for the packed lines.
        const [packed, alone] = await Promise.all([
          this.recognizePacked(short.map((i) => crops[i]!), mask),
          long.length ? this.recognizeCrops(long.map((i) => crops[i]!), { ...options, pack: false }) : [],
        ]);
        const results: DecodedText[] = new Array(crops.length);
        short.forEach((i, k) => (results[i] = packed[k]!));
        long.forEach((i, k) => (results[i] = alone[k]!));
        return results;
      }
    }
    // Similar widths in a batch waste less padding. The batches are read side by side when the
    // recogniser has several threads; they stay as they are (a crop padded to another's width
    // can read differently).
    const order = crops.map((c, i) => ({ i, r: c.width / Math.max(1, c.height) })).sort((a, b) => a.r - b.r);
    const perBatch = Math.max(1, batchSize);
    const results: DecodedText[] = new Array(crops.length);
    const slices: Array<typeof order> = [];
    for (let s = 0; s < order.length; s += perBatch) slices.push(order.slice(s, s + perBatch));
    await Promise.all(slices.map(async (slice) => {
      const batch = prepareRecognitionBatch(slice.map((o) => crops[o.i]!), undefined, options.minWidth);
      const batchWidth = batch.dims[3];
      const out = await this.rec.run(batch.data, batch.dims);
      const [, frames = 0, classes = 0] = out.dims;
      slice.forEach((o, n) => {
        const probs = out.data.subarray(n * frames * classes, (n + 1) * frames * classes);
        // Frames cover batch columns; the crop was scaled to recWidth of them.
        const crop = crops[o.i]!;
        const frameWidth = (batchWidth / Math.max(1, frames)) * (crop.width / recWidth(crop, batchWidth));
        results[o.i] = ctcGreedyDecode(probs, frames, classes, this.table.chars, { mask, frameWidth });
      });
    }));
    return results;
  }

  /** Short crops side by side on wide lines (see packRecognitionLines), one line per run. */
  private async recognizePacked(crops: readonly RawImage[], mask: Uint8Array | undefined): Promise<DecodedText[]> {
    const results: DecodedText[] = new Array(crops.length);
    await Promise.all(packRecognitionLines(crops).map(async (line) => {
      const input = preparePackedLine(crops, line);
      const out = await this.rec.run(input.data, input.dims);
      const [, frames = 0, classes = 0] = out.dims;
      const stride = line.width / Math.max(1, frames);
      for (const s of line.slots) {
        const f0 = Math.max(0, Math.floor(s.x0 / stride));
        const f1 = Math.min(frames, Math.ceil(s.x1 / stride));
        const scale = crops[s.crop]!.width / (s.x1 - s.x0);
        const framing = { frameWidth: stride * scale, frameOffset: (f0 * stride - s.x0) * scale };
        // The padding between slots may decode as a space: not part of the crop's text.
        results[s.crop] = trimSpaces(ctcGreedyDecode(out.data.subarray(f0 * classes, f1 * classes), f1 - f0, classes, this.table.chars, { mask, ...framing }));
      }
    }));
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

  readLines(image: RawImage, options: ReadLinesOptions = {}): Promise<TextLine[]> {
    return readLinesWith(this, image, options);
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

/** What readLines stands on: text boxes, the upside-down classifier and a line recogniser;
 * optionally a stack reader for columns and a second reader for lines read as they lie. */
type LineParts = Pick<OcrEngine, 'detect' | 'classifyUpsideDown' | 'recognizeCrops'> & Partial<StackRecognizer> & { secondLineReader?: LineRecognizer };

/** Lines read as they lie (upright or turned over), which a second line reader reads too. */
const liesFlat = (v: Variant) => v.layout === 'upright' || v.layout === 'upside_down';

/** Every text line in the image, read in the layouts line-layouts.ts tries. */
async function readLinesWith(parts: LineParts, image: RawImage, options: ReadLinesOptions): Promise<TextLine[]> {
  const boxes = await parts.detect(image, options);
  const stacks = parts.recognizeStacks !== undefined;
  const lines = cutLines(image, boxes.map((b) => b.quad), options.vertical ?? true, stacks);
  const { first, toClassify, deferred } = firstVariants(lines, options, stacks);
  if (toClassify.length > 0) applyUpsideDown(toClassify, await parts.classifyUpsideDown(toClassify.map((v) => v.crop)));
  const best = new Map<number, BestReading>();
  const read: Variant[] = [];
  const consider = async (variants: Variant[]) => {
    read.push(...variants);
    await readVariants(parts, variants, best, options);
  };
  await consider(first);
  if (!options.exhaustiveVertical) {
    const second = secondVariants(lines, first, deferred, best);
    if (second.length > 0) await consider(second);
  }
  if (stacks) preferAgreement(best, read);
  return readLinesOut(lines, best, options.minConfidence ?? 0.3);
}

/** Reads each variant with its reader (columns with the stack reader, the rest with the line
 * recogniser) and keeps each line's best-scoring reading; a vote (Variant.vote) is read but
 * never kept on its score alone: it lends the stack reader characters it is surer of. */
async function readVariants(parts: LineParts, variants: readonly Variant[], best: Map<number, BestReading>, options: ReadLinesOptions): Promise<void> {
  const columns = variants.filter((v) => v.column);
  const laidOut = variants.filter((v) => !v.column);
  const decoded = await parts.recognizeCrops(laidOut.map((v) => v.crop), { charset: options.charset, pack: options.pack });
  if (parts.secondLineReader) {
    const flat = laidOut.flatMap((v, k) => (liesFlat(v) ? [k] : []));
    const again = await parts.secondLineReader.recognizeCrops(flat.map((k) => laidOut[k]!.crop), { charset: options.charset });
    flat.forEach((k, n) => { decoded[k] = fuseReadings(decoded[k]!, again[n]!); });
  }
  laidOut.forEach((v, k) => { v.decoded = decoded[k]; });
  const candidates = laidOut.filter((v) => !v.vote);
  keepBest(best, candidates, candidates.map((v) => v.decoded!));
  if (columns.length === 0) return;
  const stacked = await parts.recognizeStacks!(columns.map((v) => v.crop), { charset: options.charset });
  // The vote is PP-OCR reading the stack reader's own cut, laid out: the two misread different
  // characters (an embossed 8 as 3, a stencilled 3 as 8), so where they read as many, each
  // character is the one both find likelier (docs/benchmarks.md: 384 -> 386 of 400 tuning
  // stacks when it was the surer one's), and a character the stack reader dropped inside the
  // column comes back (withDroppedCharacter).
  const votes = new Map(laidOut.flatMap((v) => (v.vote && v.decoded ? [[v.line, v.decoded] as const] : [])));
  keepBest(best, columns, stacked.map((d, k) => {
    const vote = votes.get(columns[k]!.line);
    return vote ? fuseReadings(withDroppedCharacter(d, vote), vote) : d;
  }));
}

/** What reads cut lines: PP-OCR's recogniser, or one of Vigil's own models. */
export type LineRecognizer = Pick<OcrEngine, 'recognizeCrops'>;

/** `engine` with another recogniser reading its lines (Vigil's identifier reader, say): the same
 * text boxes, the same layouts and upside-down checks, other readings. */
export function withLineRecognizer(engine: OcrEngine, recognizer: LineRecognizer): OcrEngine {
  return withParts(engine, { recognizeCrops: (crops, options) => recognizer.recognizeCrops(crops, options) });
}

/** `engine` with Vigil's stack reader also reading columns of upright characters
 * (stack-reader.ts), beside PP-OCR reading them turned and laid out side by side. */
export function withStackReader(engine: OcrEngine, stacks: StackRecognizer): OcrEngine {
  return withParts(engine, { recognizeStacks: (columns, options) => stacks.recognizeStacks(columns, options) });
}

/** `engine` with a second reader (Vigil's identifier reader) also reading every line that lies
 * flat, each character the one both find likelier where both read as many (fused-readings.ts).
 * Turned and stacked lines keep their readers: the stack reader and the layouts' agreement
 * decide those. */
export function withSecondLineReader(engine: OcrEngine, reader: LineRecognizer): OcrEngine {
  return withParts(engine, { secondLineReader: reader });
}

/** `engine`'s text boxes, upside-down checks and recogniser, with `parts` in their place, read in
 * readLinesWith's layouts. */
function withParts(engine: OcrEngine, parts: Partial<LineParts>): OcrEngine {
  // An engine built here keeps the parts it was given: a stack reader stays beside a second line reader.
  const all: LineParts = {
    detect: (image, options) => engine.detect(image, options),
    classifyUpsideDown: (crops) => engine.classifyUpsideDown(crops),
    recognizeCrops: (crops, options) => engine.recognizeCrops(crops, options),
    ...partsOf.get(engine),
    ...parts,
  };
  const built: OcrEngine = { detect: all.detect, classifyUpsideDown: all.classifyUpsideDown, recognizeCrops: all.recognizeCrops, readLines: (image, options = {}) => readLinesWith(all, image, options) };
  partsOf.set(built, all);
  return built;
}

/** The parts of each engine withParts built. */
const partsOf = new WeakMap<OcrEngine, LineParts>();
