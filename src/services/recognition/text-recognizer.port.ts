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
