/**
 * npm run bench:plates [-- --data DIR] [--split held|fit|all] [--readers server,ppocr] [--limit N] [--sets scenes-us,crops-us] [--modes normal,fast] [--no-baseline] [--hint] [--misses] [--precision fp32|fused] [--threads N] [--long-side N] [--frame WxH] [--jpeg-quality Q] [--pairs] [--grey] [--tilt DEG] [--search every-plate|first-sure|small-plates] [--sets pasted-us [--paste-scale S]]
 *
 * Plate reading on ../shared/datasets/plates-scenes (us, eu, br photos) and plates-crops-us:
 * exact-match rate of the labeled plate among the results, the same treating O/0 and I/1 as
 * equal, top-1 rate (O/0-I/1 equal), false plates per image, the region named (`region`: the
 * set's country; `state`: on the crops, the plate's state as `us-ca`), median and p95 ms per image
 * (decode included, one image at a time; `cpu` is the process CPU time per image over all
 * threads, steadier than wall time when others share the cores) in regular and fast mode; beside them the raw PP-OCR
 * baseline (whole-image readLines, best matching token).
 *
 * --long-side N resamples every photo (lanczos, larger or smaller) so its longer side is N pixels and
 * stores it again as a JPEG (quality 92, or --jpeg-quality Q) before the timed loop:
 * `--long-side 1920` shows the sets' 16:9 photos as a 1080p camera would take them (most are
 * 1280 x 720), and their square and 4:3 ones larger than one does (1920 x 1920, 1920 x 1440).
 * --frame WxH resamples every photo to fit inside W x H instead: `--frame 1920x1080` is what a
 * 1080p camera holds of each scene (a square photo 1080 x 1080).
 * --jpeg-quality Q alone stores every photo again as a JPEG of that quality at its own size.
 * --grey stores every photo again as a grey JPEG (quality 92, or Q), as an infrared camera takes
 * them at night: no colour tells a coloured emblem from a character there.
 * --tilt DEG turns every photo DEG degrees (clockwise for a positive angle, -45 to 45) before the
 * rest, on a canvas grown to hold it: plates photographed crooked, by a phone held askew or a
 * camera mounted on a slant. The labeled box becomes the upright box around its turned corners,
 * so box IoU and `covered` still mean something (a turned plate fills less of that box).
 * All of them show what tuning to these exact pixels hides: a pipeline that reads a plate only from the
 * photo as it is, and not from a copy that looks the same, was lucky rather than right.
 *
 * --split held (default) reads only the half of each dev set that Vigil's models never trained on
 * (a hash of each file's contents decides, as in training/); `fit` the other half, `all` both.
 * --readers lists what reads the candidate lines, each measured in the same run: `server`, the
 * pipeline as `vigil serve` builds it with the default settings (configured-pipeline.ts: the
 * plate detector, the trained reader for photos with PP-OCR's second opinion, PP-OCR for plate
 * crops); `trained`, the plate reader in models/; `ppocr`, the general PP-OCR recogniser the pipeline used before (the
 * baseline); `trained+ppocr`, the trained reader with PP-OCR's second opinion on the lines it
 * left unsure, in modes that ask for one; `+det` after any of them: the plate detector in
 * models/ finds the candidates first (the text detector's passes only as a fallback in regular
 * mode). Default: server,ppocr.
 *
 * --pairs reads every scene photo beside the next one of its set (1 with 2, 3 with 4, ...; an odd
 * last one beside the first), each fitted into one half of a 1920 x 1080 canvas (never enlarged)
 * and stored as a JPEG (quality 92): a gate or parking row with two cars. The rates are per
 * labeled plate (both must be read), `both` is the share of photos where both were; a plate
 * counts as false unless it is one of the two labeled ones. Crop sets are left out.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import sharp from 'sharp';
import { decodeImage } from '../src/vision/image/decode.js';
import { parseOcrPrecision } from '../src/vision/runtime/model-variants.js';
import { createOcrEngine } from '../src/vision/ocr/ocr-engine.js';
import { createPlatePipeline, type PlatePipeline } from '../src/vision/plates/plate-pipeline.js';
import { configuredPlatePipeline } from '../src/vision/plates/configured-pipeline.js';
import { defaultVisionSettings } from '../src/vision/settings.js';
import { createPlateTextModel } from '../src/vision/plates/plate-text-model.js';
import { createPlateDetector } from '../src/vision/plates/plate-detector-model.js';
import { parsePlateSearch } from '../src/vision/plates/plate-search.js';
import type { PlateReadOptions } from '../src/vision/plates/plate.types.js';
import { DEFAULT_DATA_DIR, DEV_SPLITS, type DevSplit, loadPlateSets, type PlateBox, type PlateSample } from './lib/plates-dataset.js';
import { coverage, iou } from './lib/boxes.js';
import { calibration, COVERED, exactKey, formatRow, looseKey, regionMatches, type SampleOutcome, summarise } from './lib/plates-bench-metrics.js';
import { copyOptionsFromArgs, describeCopies, type PhotoCopy, photoCopy } from './lib/plate-copies.js';
import { PASTED_SET, pastedSet, pasteScaleOption } from './lib/plate-paste.js';
import { flag, timed } from './lib/stats.js';

const dataDir = flag('data', DEFAULT_DATA_DIR)!;
const limit = Number(flag('limit', '0'));
const wantedSets = flag('sets')?.split(',');
// --calibration: per set and mode, how often a returned plate is the labeled one per score band.
const showCalibration = process.argv.includes('--calibration');
const modes = (flag('modes', 'normal,fast')!.split(',')) as Array<PlateReadOptions['mode']>;
const baseline = !process.argv.includes('--no-baseline');
const hint = process.argv.includes('--hint');
const showMisses = process.argv.includes('--misses');
const pairs = process.argv.includes('--pairs');

const copies = copyOptionsFromArgs(flag);
const photo = (file: string) => photoCopy(file, copies);

/** Half of the --pairs canvas: a photo is fitted into it, centred. */
const HALF = { width: 960, height: 1080 };

/** Two photos side by side on a 1920 x 1080 canvas (see --pairs), and their labeled boxes there. */
async function pairPhoto(a: PlateSample, b: PlateSample): Promise<{ bytes: Buffer; boxes: Array<PlateBox | undefined> }> {
  const halves = await Promise.all([a, b].map(async (s, i) => {
    const bytes = await readFile(s.file);
    const meta = await sharp(bytes).metadata();
    const { data, info } = await sharp(bytes).rotate().resize(HALF.width, HALF.height, { fit: 'inside', withoutEnlargement: true, kernel: 'lanczos3' })
      .png().toBuffer({ resolveWithObject: true });
    const left = i * HALF.width + Math.floor((HALF.width - info.width) / 2);
    const top = Math.floor((HALF.height - info.height) / 2);
    const k = Math.max(info.width, info.height) / Math.max(meta.width ?? 1, meta.height ?? 1);
    const box = s.box && { xmin: left + s.box.xmin * k, ymin: top + s.box.ymin * k, xmax: left + s.box.xmax * k, ymax: top + s.box.ymax * k };
    return { input: data, left, top, box };
  }));
  const bytes = await sharp({ create: { width: 2 * HALF.width, height: HALF.height, channels: 3, background: { r: 128, g: 128, b: 128 } } })
    .composite(halves).jpeg({ quality: 92 }).toBuffer();
  return { bytes, boxes: halves.map((h) => h.box) };
}

/** Each photo with the next one of its set (an odd last one with the first). */
const pairUp = <T>(all: readonly T[]): Array<[T, T]> =>
  all.flatMap((s, i) => (i % 2 === 0 && all.length > 1 ? [[s, all[(i + 1) % all.length]!] as [T, T]] : []));

const split = flag('split', 'held') as DevSplit;
if (!DEV_SPLITS.includes(split)) throw new Error(`--split must be one of ${DEV_SPLITS.join(', ')}`);
const sets = await loadPlateSets(dataDir, split);
// pasted-us (only when named in --sets): the split's crops-us plates pasted over the plates of
// plates-scenes photos of every region and split, at 1080p (bench/lib/plate-paste.ts); the
// copies (--long-side, --frame, --jpeg-quality, --grey, --tilt) and --pairs do not apply to it.
const pastedPhotos = new Map<PlateSample, PhotoCopy>();
// --paste-scale 0.5: the pasted plates at half that size, as a car twice as far off shows them.
const pasteScale = pasteScaleOption(flag('paste-scale'));
if (wantedSets?.includes(PASTED_SET)) {
  const pasted = await pastedSet(dataDir, sets['crops-us'] ?? [], pasteScale);
  for (const { sample, bytes } of pasted) pastedPhotos.set(sample, { bytes, scale: 1, place: (b) => b });
  sets[PASTED_SET] = pasted.map((p) => p.sample);
}
// --precision fp32|fused: which graph the OCR models run (default: OCR_PRECISION, else fused).
// --threads N: onnxruntime intra-op threads per session (default: INFERENCE_THREADS, else cores).
const threads = Number(flag('threads') ?? process.env.INFERENCE_THREADS) || undefined;
const ocr = await createOcrEngine({ precision: parseOcrPrecision(flag('precision') ?? process.env.OCR_PRECISION), intraOpNumThreads: threads });
// --search first-sure: regular mode stops at the first sure plate (default: PLATE_SEARCH, else every-plate).
const search = parsePlateSearch(flag('search') ?? process.env.PLATE_SEARCH);
const readerNames = flag('readers', 'server,ppocr')!.split(',');
const pipelines: Array<[string, PlatePipeline]> = [];
const READER_PARTS = ['trained', 'ppocr', 'det'];
for (const name of readerNames) {
  if (name === 'server') {
    pipelines.push([name, await configuredPlatePipeline(ocr, { ...defaultVisionSettings(), plateSearch: search, ...(threads ? { inferenceThreads: threads } : {}) })]);
    continue;
  }
  const parts = name.split('+');
  if (parts.some((p) => !READER_PARTS.includes(p)) || !(parts.includes('trained') || parts.includes('ppocr'))) {
    throw new Error(`--readers: unknown reader ${name} (server, or trained, trained+ppocr, ppocr, each optionally +det)`);
  }
  const trained = parts.includes('trained');
  pipelines.push([name, createPlatePipeline(ocr, {
    search,
    reader: trained ? await createPlateTextModel() : undefined,
    secondOpinion: trained && parts.includes('ppocr') ? ocr : undefined,
    plateDetector: parts.includes('det') ? await createPlateDetector() : undefined,
  })]);
}

const options = (mode: PlateReadOptions['mode'], region: string): PlateReadOptions => ({
  regions: hint && region !== 'eu' ? [region] : [], strictRegion: false, textFormats: [], mode,
  thresholdD: 0.2, thresholdO: 0.6, strictDetection: false, mmc: false,
});

console.log(`plates bench: ${split} split, readers ${readerNames.join(' and ')}, ${os.cpus().length} cores, ${threads ?? 'default'} intra-op threads, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, regions hint ${hint ? 'on' : 'off'}${describeCopies(copies)}`);
/** Per labeled plate of each two-plate photo: the other labeled plate is no false one. */
async function benchPairs(name: string, samples: readonly PlateSample[], pipeline: PlatePipeline): Promise<void> {
  const photos = await Promise.all(pairUp(samples).map(async (pair) => ({ pair, ...(await pairPhoto(...pair)) })));
  await pipeline.read(await decodeImage(photos[0]!.bytes), options('normal', samples[0]!.region));
  for (const mode of modes) {
    const outcomes: SampleOutcome[] = [];
    let both = 0;
    for (const { pair, bytes, boxes } of photos) {
      const { value: res, ms, cpuMs } = await timed(async () => pipeline.read(await decodeImage(bytes), options(mode, pair[0].region)));
      const hits = pair.map((s) => res.plates.find((p) => looseKey(p.plate) === looseKey(s.plate)));
      if (hits.every(Boolean)) both++;
      pair.forEach((s, i) => {
        const other = looseKey(pair[1 - i]!.plate);
        const box = boxes[i];
        const hit = hits[i];
        outcomes.push({ label: s.plate, plates: res.plates.map((p) => p.plate).filter((p) => looseKey(p) !== other), ms, cpuMs, iou: hit && box ? iou(hit.box, box) : undefined, coverage: box && coverage(box, res.plates.map((p) => p.box)) });
      });
      if (showMisses && !hits.every(Boolean)) console.log(`  miss ${pair.map((s) => s.plate).join(' + ')}: ${res.plates.map((p) => p.plate).join(' ') || '-'}`);
    }
    console.log(`${formatRow(`${name} pairs ${mode}`, summarise(outcomes))}  both ${((both / photos.length) * 100).toFixed(1)}%`);
  }
}

for (const [name, all] of Object.entries(sets)) {
  if (wantedSets && !wantedSets.includes(name)) continue;
  const samples = limit > 0 ? all.slice(0, limit) : all;
  if (pairs) {
    if (name.startsWith('scenes-')) for (const [reader, pipeline] of pipelines) await benchPairs(`${name} ${reader}`, samples, pipeline);
    continue;
  }
  const photos = await Promise.all(samples.map((s) => pastedPhotos.get(s) ?? photo(s.file)));
  const bytes = photos.map((p) => p.bytes);
  // Warm-up: first runs allocate the sessions' buffers.
  for (const [, pipeline] of pipelines) await pipeline.read(await decodeImage(bytes[0]!), options('normal', samples[0]!.region));
  for (const mode of modes) for (const [reader, pipeline] of pipelines) {
    const outcomes: SampleOutcome[] = [];
    const wrongRegions: string[] = [];
    for (let i = 0; i < samples.length; i++) {
      const { value: res, ms, cpuMs } = await timed(async () => pipeline.read(await decodeImage(bytes[i]!), options(mode, samples[i]!.region)));
      const label = samples[i]!.plate;
      const hit = res.plates.find((p) => looseKey(p.plate) === looseKey(label));
      const labeled = samples[i]!.box;
      const box = labeled && photos[i]!.place(labeled);
      const regionRight = hit ? regionMatches(samples[i]!.region, hit.region.code) : undefined;
      if (regionRight === false) wrongRegions.push(`  region ${label}: ${hit!.region.code}`);
      const state = samples[i]!.state;
      const stateRight = hit && state ? hit.region.code === `us-${state}` : undefined;
      // A state named wrong is a mistake; a plate left at `us` (no legend read) is not listed.
      if (stateRight === false && hit!.region.code.includes('-')) wrongRegions.push(`  state ${label}: ${hit!.region.code}, not us-${state}`);
      outcomes.push({ label, plates: res.plates.map((p) => p.plate), ms, cpuMs, iou: hit && box ? iou(hit.box, box) : undefined, coverage: box && coverage(box, res.plates.map((p) => p.box)), regionRight, stateRight, scores: res.plates.map((p) => p.score) });
    }
    console.log(formatRow(`${name} ${mode} ${reader}`, summarise(outcomes)));
    if (showCalibration) console.log(calibration(outcomes));
    if (showMisses) {
      for (const o of outcomes) if (!o.plates.some((p) => looseKey(p) === looseKey(o.label))) console.log(`  miss ${o.label}: ${o.plates.join(' ') || '-'}`);
      for (const o of outcomes) if (o.coverage !== undefined && o.coverage < COVERED) console.log(`  uncovered ${o.label}: ${(o.coverage * 100).toFixed(0)}% of its box`);
      for (const line of wrongRegions) console.log(line);
      for (const o of outcomes) {
        const others = o.plates.filter((p) => looseKey(p) !== looseKey(o.label));
        if (others.length) console.log(`  false beside ${o.label}: ${others.join(' ')}`);
      }
    }
  }
  if (baseline) {
    const outcomes: SampleOutcome[] = [];
    for (let i = 0; i < samples.length; i++) {
      const { value: lines, ms, cpuMs } = await timed(async () => ocr.readLines(await decodeImage(bytes[i]!)));
      // Best matching token: every line and every space-separated piece, alphanumerics only.
      const tokens = lines.flatMap((l) => [l.text, ...l.text.split(/\s+/)]).map(exactKey).filter((s) => s.length > 0);
      const label = samples[i]!.plate;
      const hit = tokens.find((tk) => tk === exactKey(label)) ?? tokens.find((tk) => looseKey(tk) === looseKey(label));
      outcomes.push({ label, plates: hit ? [hit] : [], ms, cpuMs });
    }
    const s = summarise(outcomes);
    console.log(`${`${name} raw PP-OCR`.padEnd(28)} n=${String(s.n).padStart(3)}  exact ${(s.exact * 100).toFixed(1).padStart(5)}%  O0/I1 ${(s.loose * 100).toFixed(1).padStart(5)}%  median ${s.medianMs.toFixed(0).padStart(4)} ms  p95 ${s.p95Ms.toFixed(0).padStart(4)} ms  cpu ${s.medianCpuMs.toFixed(0).padStart(4)} ms`);
  }
}
