import { parseChoice } from '../../domain/choice.js';

/** What reads plate numbers in photos (PLATE_READER): `trained` (default), Vigil's own plate
 * reader with its convolutions in 8 bits (models/plate-reader.int8.onnx), with PP-OCR's second
 * opinion on unsure lines in regular mode and on O/0 ties between regions in both, PP-OCR
 * reading plate crops; `trained-fp32`, the same with the reader's float graph as trained
 * (models/plate-reader.onnx); or `ppocr`, the general PP-OCR text recogniser everywhere, as
 * before 2026-11-27. Figures: docs/benchmarks.md. */
export type PlateLineReader = 'trained' | 'trained-fp32' | 'ppocr';
export const PLATE_LINE_READERS: readonly PlateLineReader[] = ['trained', 'trained-fp32', 'ppocr'];
export const parsePlateLineReader = (value: string | undefined): PlateLineReader => parseChoice('PLATE_READER', PLATE_LINE_READERS, 'trained', value);
