import { decodeForRecognition } from '../image/decode.js';
import { createOcrEngine } from '../ocr/ocr-engine.js';
import { configuredPlatePipeline } from '../plates/configured-pipeline.js';
import type { PlatePipeline } from '../plates/plate-pipeline.js';
import { ocrEngineOptions, type VisionSettings, workerVisionSettings } from '../settings.js';
import type { VehicleFinder } from '../plates/vehicle-assignment.js';
import { dominantColour } from '../vehicles/vehicle-colour.js';
import { createVehicleDetector } from '../vehicles/vehicle-detector.js';
import type { PlateReadOptions, PlateReadResult } from '../plates/plate.types.js';

let pipeline: Promise<PlatePipeline> | undefined;

/** One pipeline per worker thread: the OCR sessions load on first use and stay. */
function getPipeline(): Promise<PlatePipeline> {
  pipeline ??= loadPipeline(workerVisionSettings());
  return pipeline;
}

async function loadPipeline(settings: VisionSettings): Promise<PlatePipeline> {
  const ocr = await createOcrEngine(ocrEngineOptions(settings));
  // The COCO vehicle detector (loaded lazily on its first use: only strict detection and
  // mmc ask for vehicles); 0.2 is its own default score floor.
  const detector = await createVehicleDetector();
  const vehicles: VehicleFinder = {
    detect: (img) => detector.detect(img, { minScore: 0.2 }),
    dominantColour,
  };
  return configuredPlatePipeline(ocr, settings, vehicles);
}

/** Worker-thread entry: one plate reading. Buffers arrive as Uint8Arrays (structured clone). */
export default async function readPlates({ image, options }: { image: Uint8Array; options: PlateReadOptions }): Promise<PlateReadResult> {
  const [p, raw] = await Promise.all([getPipeline(), decodeForRecognition(Buffer.from(image.buffer, image.byteOffset, image.byteLength))]);
  return p.read(raw, options);
}
