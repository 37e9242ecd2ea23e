import type { Quad } from '../image/quad.js';

export type { Point } from '../image/warp.js';
/** Corners clockwise from top-left, in image pixels. */
export type { Quad };

/** A text region that may be a plate, in full-image pixels. */
export interface PlateCandidate {
  /** One quad per text line, top to bottom (two for stacked two-line plates). */
  lines: Quad[];
  /** Detector confidence times plate-likeness, 0..1. */
  dscore: number;
  /** The lines come from a close-up detection (tight boxes from full-resolution pixels). */
  closeUp?: boolean;
}

export type PlateMode = 'normal' | 'fast' | 'redaction';
