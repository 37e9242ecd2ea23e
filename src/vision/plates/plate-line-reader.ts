import { parseChoice } from '../../domain/choice.js';

/** What reads plate numbers (PLATE_READER): `ppocr` (default), the general PP-OCR text
 * recogniser the pipeline was tuned around, or `trained`, Vigil's own plate reader
 * (models/plate-reader.onnx) with PP-OCR's second opinion on unsure lines in regular mode. The
 * trained reader reads more crops alone but fewer plates inside today's pipeline (2026-11-27,
 * docs/benchmarks.md), so it is not the default yet. */
export type PlateLineReader = 'trained' | 'ppocr';
export const PLATE_LINE_READERS: readonly PlateLineReader[] = ['trained', 'ppocr'];
export const parsePlateLineReader = (value: string | undefined): PlateLineReader => parseChoice('PLATE_READER', PLATE_LINE_READERS, 'ppocr', value);
