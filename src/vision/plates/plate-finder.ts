import { parseChoice } from '../../domain/choice.js';

/** What finds plates in a photo (PLATE_DETECTOR): `trained` (default), Vigil's own plate
 * detector (models/plate-detector.onnx), whose boxes are read from close-ups first, with the
 * text detector's passes behind it in regular mode for the photos where it found no sure plate
 * (fast mode reads only its boxes); or `text`, the PP-OCR text detector's passes alone, as
 * before 2026-11-27. docs/benchmarks.md has the figures. */
export type PlateFinder = 'trained' | 'text';
export const PLATE_FINDERS: readonly PlateFinder[] = ['trained', 'text'];
export const parsePlateFinder = (value: string | undefined): PlateFinder => parseChoice('PLATE_DETECTOR', PLATE_FINDERS, 'trained', value);
