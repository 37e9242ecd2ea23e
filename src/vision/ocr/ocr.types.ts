import type { CharCandidate, CharSpan, OtherReading } from './ctc-decode.js';
import type { Quad } from './geometry.js';

export type TextOrientation = 'horizontal' | 'vertical';

export interface TextLine {
  text: string;
  /** Mean per-character probability, 0..1. */
  confidence: number;
  charConfidences: number[];
  /** Best few classes per character (see CharCandidate). */
  alternatives: CharCandidate[][];
  /** Corners in image pixels, clockwise from top-left. */
  box: Quad;
  /** Read upright only: where each character was seen, in pixels along the box's top edge from
   * its first corner. */
  charSpans?: CharSpan[];
  orientation: TextOrientation;
  /** How the crop was read: as is, turned 180 (upside down), turned a quarter either way
   * (rotated vertical text), or re-laid from a stack of upright characters. */
  layout: 'upright' | 'upside_down' | 'rotated_ccw' | 'rotated_cw' | 'stacked';
  /** A second reader's reading of the line where it read another number of characters
   * (DecodedText.otherReading). */
  otherReading?: OtherReading;
}

export interface ReadLinesOptions {
  /** Longer side of the detector input (default 960). Larger finds smaller text, slower. */
  detLimitSide?: number;
  /** Enlarge small images so their longer side reaches this (default 0: never). */
  detMinSide?: number;
  /** Only these characters may be decoded (e.g. A-Z0-9 for codes). Default: any. */
  charset?: string;
  /** Run the 0/180 angle classifier on horizontal crops (default true). */
  detectUpsideDown?: boolean;
  /** Try vertical layouts for tall boxes (default true). */
  vertical?: boolean;
  /** Read every layout of tall boxes (both quarter turns and the character stack) instead of
   * the one the angle classifier prefers, with the others only when that reading is weak
   * (default false: same readings, fewer recogniser runs). */
  exhaustiveVertical?: boolean;
  /** Recognise crops packed side by side on wide lines (see RecognizeOptions.pack). */
  pack?: boolean;
  /** Drop lines below this confidence (default 0.3). */
  minConfidence?: number;
  /** DB thresholds. */
  boxThreshold?: number;
  unclipRatio?: number;
}

export interface RecognizeOptions {
  charset?: string;
  batchSize?: number;
  /** Narrowest input in columns at height 48 (default REC_MIN_WIDTH, 320, what PP-OCRv4 was
   * trained at): a short crop padded to fewer columns costs less to read. */
  minWidth?: number;
  /** Lay short crops side by side on wide lines and read each line once (default false):
   * cheaper when there are many short crops. */
  pack?: boolean;
}

/** The OCR types of the spec's general reader. */
export const OCR_TYPES = ['vin', 'trailer_id', 'odometer', 'shipping_container', 'boat_reg_number'] as const;
export type OcrType = (typeof OCR_TYPES)[number];

/** One identifier read from an image. */
export interface TextReading {
  value: string;
  /** 0..1 */
  confidence: number;
  orientation: 'horizontal' | 'vertical';
  /** Only for shipping_container: which field of the container marking this is. */
  label?: string;
  /** Where it was read, in image pixels, when the reader knows (the dashboard draws it; the
   * API's result does not carry it). */
  box?: { xmin: number; ymin: number; xmax: number; ymax: number };
}

/** Reads identifiers of a type from image bytes. Implemented on worker threads. */
export interface TextRecognizer {
  read(type: OcrType, image: Buffer): Promise<TextReading[]>;
}
