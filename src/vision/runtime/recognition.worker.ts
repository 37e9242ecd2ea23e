import { decodeForRecognition } from '../image/decode.js';
import { createOcrEngine, type OcrEngine, withSecondLineReader, withStackReader } from '../ocr/ocr-engine.js';
import { createIdentifierReader, readsWithSecondLineReader } from '../ocr/identifier-reader.js';
import { createStackReader } from '../ocr/stack-reader.js';
import type { OcrType, TextReading } from '../ocr/ocr.types.js';
import { readText } from '../ocr/readers/text-reader.js';
import { configuredPlatePipeline } from '../plates/configured-pipeline.js';
import type { PlatePipeline } from '../plates/plate-pipeline.js';
import type { PlateReadOptions, PlateReadResult } from '../plates/plate.types.js';
import type { VehicleFinder } from '../plates/vehicle-assignment.js';
import { ocrEngineOptions, workerVisionSettings } from '../settings.js';
import { dominantColour } from '../vehicles/vehicle-colour.js';

/** One recognition worker thread reads plates and text alike: both stand on the PP-OCR engine,
 * which a thread loads once, on its first task, and keeps. (Separate plate and text pools held a
 * copy each: about 500 MB per thread once large photos had passed through; see bench:overload.) */

export type RecognitionTask =
  | { kind: 'plates'; image: Uint8Array; options: PlateReadOptions }
  | { kind: 'text'; type: OcrType; image: Uint8Array };

let engine: Promise<OcrEngine> | undefined;
let textEngine: Promise<OcrEngine> | undefined;
let trailerIdEngine: Promise<OcrEngine> | undefined;
let pipeline: Promise<PlatePipeline> | undefined;

const ocrEngine = () => (engine ??= createOcrEngine(ocrEngineOptions(workerVisionSettings())));

/** The engine identifiers are read with: the plate pipeline's, with Vigil's stack reader on
 * columns of stacked characters unless STACK_READER=ppocr (plates are never stacked). */
function identifierEngine(): Promise<OcrEngine> {
  textEngine ??= (async () => {
    const settings = workerVisionSettings();
    if (settings.stackReader === 'ppocr') return ocrEngine();
    const { memoryArena } = ocrEngineOptions(settings);
    const [ocr, stacks] = await Promise.all([ocrEngine(), createStackReader({ memoryArena })]);
    return withStackReader(ocr, stacks);
  })();
  return textEngine;
}

/** The engine trailer IDs are read with: the identifier engine with Vigil's identifier reader
 * reading each line that lies flat beside PP-OCR, unless IDENTIFIER_READER=ppocr. */
function trailerEngine(): Promise<OcrEngine> {
  trailerIdEngine ??= (async () => {
    const settings = workerVisionSettings();
    if (settings.identifierReader === 'ppocr') return identifierEngine();
    const { memoryArena } = ocrEngineOptions(settings);
    const [engine, reader] = await Promise.all([identifierEngine(), createIdentifierReader({ memoryArena })]);
    return withSecondLineReader(engine, reader);
  })();
  return trailerIdEngine;
}

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
  return readText(await (readsWithSecondLineReader(type) ? trailerEngine() : identifierEngine()), type, img);
}

/** Worker-thread entry: one plate or text reading. */
export default function recognise(task: RecognitionTask): Promise<PlateReadResult | TextReading[]> {
  return task.kind === 'plates' ? readPlates(task.image, task.options) : readIdentifiers(task.type, task.image);
}
