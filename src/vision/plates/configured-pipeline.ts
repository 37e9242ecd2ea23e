import { keepsMemoryArena, type VisionSettings } from '../settings.js';
import { createPlateDetector } from './plate-detector-model.js';
import { createPlatePipeline, type PlateOcr, type PlatePipeline } from './plate-pipeline.js';
import { createPlateTextModel } from './plate-text-model.js';
import type { VehicleFinder } from './vehicle-assignment.js';

/** The plate pipeline the settings ask for (PLATE_READER, PLATE_DETECTOR, PLATE_SEARCH, PLATE_VEHICLES): the one
 * place that turns them into models, for the workers and the benches alike. */
export async function configuredPlatePipeline(
  ocr: PlateOcr,
  settings: Pick<VisionSettings, 'plateReader' | 'plateDetector' | 'plateSearch' | 'inferenceThreads'> & Partial<Pick<VisionSettings, 'plateVehicles' | 'inferenceMemory'>>,
  vehicles?: VehicleFinder,
): Promise<PlatePipeline> {
  // With PLATE_READER=trained Vigil's reader reads the plate numbers in photos, and PP-OCR's
  // recogniser, loaded anyway for legends, gives a second opinion on the lines it left unsure and
  // reads plate crops, on which it reads more (held plates-crops-us, 2026-11-27: 98.5% against 95.5%).
  const trained = settings.plateReader !== 'ppocr';
  const memoryArena = keepsMemoryArena(settings.inferenceMemory);
  // The reader's batches (a pass's lines, then their second looks) run on as many threads as
  // the other models: on two, the held 1080p scenes took 0.95-0.99 times the time per photo
  // (2026-11-28, bench:plates-ab), for about 2% more CPU.
  const precision = settings.plateReader === 'trained-fp32' ? 'fp32' : 'int8';
  const reader = trained ? await createPlateTextModel({ precision, intraOpNumThreads: settings.inferenceThreads, memoryArena }) : undefined;
  // With PLATE_DETECTOR=trained Vigil's plate detector finds the candidates first.
  const plateDetector = settings.plateDetector === 'trained' ? await createPlateDetector({ intraOpNumThreads: settings.inferenceThreads, memoryArena }) : undefined;
  return createPlatePipeline(ocr, {
    vehicles, reader, cropReader: ocr, secondOpinion: trained ? ocr : undefined, search: settings.plateSearch, plateDetector,
    vehicleLookups: settings.plateVehicles,
  });
}
