import { parseChoice } from '../../domain/choice.js';

/** What reads plate numbers (PLATE_READER): `trained`, Vigil's own plate reader
 * (models/plate-reader.onnx), or `ppocr`, the general PP-OCR text recogniser. */
export type PlateLineReader = 'trained' | 'ppocr';
export const PLATE_LINE_READERS: readonly PlateLineReader[] = ['trained', 'ppocr'];
export const parsePlateLineReader = (value: string | undefined): PlateLineReader => parseChoice('PLATE_READER', PLATE_LINE_READERS, 'ppocr', value);
