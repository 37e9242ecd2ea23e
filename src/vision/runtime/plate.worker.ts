import { decodeForRecognition } from '../image/decode.js';
import { createOcrEngine } from '../ocr/ocr-engine.js';
import { createPlatePipeline, type PlatePipeline } from '../plates/plate-pipeline.js';
import { parsePlateSearch } from '../plates/plate-search.js';
import type { VehicleFinder } from '../plates/vehicle-assignment.js';
import { dominantColour } from '../vehicles/vehicle-colour.js';
import { createVehicleDetector } from '../vehicles/vehicle-detector.js';
import type { PlateReadOptions, PlateReadResult } from '../../services/recognition/plate-reader.port.js';

let pipeline: Promise<PlatePipeline> | undefined;

/** One pipeline per worker thread: the OCR sessions load on first use and stay. */
function getPipeline(): Promise<PlatePipeline> {
  pipeline ??= createOcrEngine().then(async (ocr) => {
    // The COCO vehicle detector (loaded lazily on its first use: only strict detection and
    // mmc ask for vehicles); 0.2 is its own default score floor.
    const detector = await createVehicleDetector();
    const vehicles: VehicleFinder = {
      detect: (img) => detector.detect(img, { minScore: 0.2 }),
      dominantColour,
    };
    return createPlatePipeline(ocr, vehicles, parsePlateSearch(process.env.PLATE_SEARCH));
  });
  return pipeline;
}

/** Worker-thread entry: one plate reading. Buffers arrive as Uint8Arrays (structured clone). */
export default async function readPlates({ image, options }: { image: Uint8Array; options: PlateReadOptions }): Promise<PlateReadResult> {
  const [p, raw] = await Promise.all([getPipeline(), decodeForRecognition(Buffer.from(image.buffer, image.byteOffset, image.byteLength))]);
  return p.read(raw, options);
}
