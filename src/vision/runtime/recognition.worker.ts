import { decodeForRecognition } from '../image/decode.js';
import { createOcrEngine, type OcrEngine, withSecondLineReader, withStackReader } from '../ocr/ocr-engine.js';
import { createIdentifierReader, identifierPrecision, readsWithSecondLineReader } from '../ocr/identifier-reader.js';
import { createStackReader } from '../ocr/stack-reader.js';
import type { OcrType, TextReading } from '../ocr/ocr.types.js';
import { readText } from '../ocr/readers/text-reader.js';
import { configuredPlatePipeline } from '../plates/configured-pipeline.js';
import type { PlatePipeline } from '../plates/plate-pipeline.js';
import type { PlateReadOptions, PlateReadResult } from '../plates/plate.types.js';
import type { VehicleFinder } from '../plates/vehicle-assignment.js';
import { ocrEngineOptions, type VisionSettings, workerVisionSettings } from '../settings.js';
import { dominantColour } from '../vehicles/vehicle-colour.js';

/** One recognition worker thread reads plates and text alike: both stand on the PP-OCR engine,
 * which a thread loads once, on its first task, and keeps. (Separate plate and text pools held a
 * copy each: about 500 MB per thread once large photos had passed through; see bench:overload.) */

export type RecognitionTask =
  | { kind: 'plates'; image: Uint8Array; options: PlateReadOptions }
  | { kind: 'text'; type: OcrType; image: Uint8Array };

let engine: Promise<OcrEngine> | undefined;
let textEngine: Promise<OcrEngine> | undefined;
let fusedIdEngine: Promise<OcrEngine> | undefined;
let pipeline: Promise<PlatePipeline> | undefined;

const ocrEngine = () => (engine ??= createOcrEngine(ocrEngineOptions(workerVisionSettings())));

/** `base` with one of Vigil's models beside it (`add`), loaded as the thread's settings say
 * (its memory setting, and which graph), or `base` alone where the settings turn that model off. */
async function withModel<M>(base: () => Promise<OcrEngine>, wanted: (s: VisionSettings) => boolean,
  load: (o: { memoryArena?: boolean }, settings: VisionSettings) => Promise<M>, add: (engine: OcrEngine, model: M) => OcrEngine): Promise<OcrEngine> {
  const settings = workerVisionSettings();
  if (!wanted(settings)) return base();
  const { memoryArena } = ocrEngineOptions(settings);
  const [engine, model] = await Promise.all([base(), load({ memoryArena }, settings)]);
  return add(engine, model);
}

/** The engine identifiers are read with: the plate pipeline's, with Vigil's stack reader on
 * columns of stacked characters unless STACK_READER=ppocr (plates are never stacked). */
const identifierEngine = (): Promise<OcrEngine> =>
  (textEngine ??= withModel(ocrEngine, (s) => s.stackReader !== 'ppocr', createStackReader, withStackReader));

/** The engine trailer IDs and VINs are read with (readsWithSecondLineReader): the identifier
 * engine with Vigil's identifier reader, in the graph IDENTIFIER_READER names, reading each line
 * that lies flat beside PP-OCR, unless IDENTIFIER_READER=ppocr. */
const fusedEngine = (): Promise<OcrEngine> =>
  (fusedIdEngine ??= withModel(identifierEngine, (s) => s.identifierReader !== 'ppocr',
    (o, s) => createIdentifierReader({ ...o, precision: identifierPrecision(s.identifierReader) }), withSecondLineReader));

/** The COCO vehicle detector and tfjs under it (about 55 MB a thread) load on first use: mmc,
 * vehicle grouping and plates the plate detector's vehicle head put on no vehicle ask for it
 * (PLATE_VEHICLES, plate-vehicles.ts); threads that read only text never do. The module
 * loader keeps the import and the detector module keeps its model (retrying one that failed). */
const vehicleDetector = async () => (await import('../vehicles/vehicle-detector.js')).createVehicleDetector();

function platePipeline(): Promise<PlatePipeline> {
  pipeline ??= (async () => {
    // 0.2 is the COCO vehicle detector's own default score floor.
    const vehicles: VehicleFinder = { detect: async (img) => (await vehicleDetector()).detect(img, { minScore: 0.2 }), dominantColour };
    return configuredPlatePipeline(await ocrEngine(), workerVisionSettings(), vehicles);
  })();
  return pipeline;
}

/** Buffers arrive as Uint8Arrays (structured clone). */
const asBuffer = (image: Uint8Array) => Buffer.from(image.buffer, image.byteOffset, image.byteLength);

/** The plates in an encoded photo. */
export async function readPlates(image: Uint8Array, options: PlateReadOptions): Promise<PlateReadResult> {
  const [p, raw] = await Promise.all([platePipeline(), decodeForRecognition(asBuffer(image))]);
  return p.read(raw, options);
}

/** The identifiers of `type` in an encoded photo. */
export async function readIdentifiers(type: OcrType, image: Uint8Array): Promise<TextReading[]> {
  const img = await decodeForRecognition(asBuffer(image), { maxSide: 2048 });
  return readText(await (readsWithSecondLineReader(type) ? fusedEngine() : identifierEngine()), type, img);
}

/** Worker-thread entry: one plate or text reading. */
export default function recognise(task: RecognitionTask): Promise<PlateReadResult | TextReading[]> {
  return task.kind === 'plates' ? readPlates(task.image, task.options) : readIdentifiers(task.type, task.image);
}
