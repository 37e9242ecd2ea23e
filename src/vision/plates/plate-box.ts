import type { Box } from './plate.types.js';
import { quadBounds } from '../image/quad.js';
import type { Quad } from './plate.types.js';

/** How far a plate reaches beyond its number's text: above and below in line heights, at each
 * side in text widths. */
export interface PlateMargins {
  above: number;
  below: number;
  side: number;
  /** The box is at least this wide and tall, in line heights (widened evenly; heightened as the
   * margins above and below share out). */
  least?: { width: number; height: number };
}

/**
 * The plate around its number, as the labeled boxes of the plate photos draw it. The number sits
 * in a plate's lower part (a state name, a city strip or the Mercosur band above it) and the
 * detector's text box already has a margin of its own, so the plate reaches a quarter of a line
 * above the text and a tenth below. Fitted to the labeled plates Vigil reads in plates-scenes
 * (2026-11-26, `npm run bench:plates`): median IoU us / eu / br 0.69 / 0.57 / 0.71 -> 0.78 / 0.80 /
 * 0.77, boxes at IoU 0.5 or more 89 / 74 / 95% -> 99 / 96 / 100%; fitted on any two of the sets,
 * the third gains as much. The symmetric margins before (0.45 of a line above and below, 0.08 of the text at each
 * side) drew boxes half again as tall as the plate.
 */
export const PLATE_MARGINS: PlateMargins = { above: 0.25, below: 0.1, side: 0.04 };

/** A plate is about four line heights wide and two tall (a US plate 12 x 6 inches around
 * characters under 3 inches, whose detected line is a little taller than its glyphs): a short
 * number (a vanity plate, a number read in part) still sits in a plate that wide, which the
 * margins of its own width do not reach. Fitted on the `fit` half of plates-scenes, 2026-11-27. */
const REDACTION_LEAST = { width: 4, height: 2 };

/** Redaction blurs the box it returns, so the box errs large: these margins take in at least 90%
 * of 98% of the labeled plates Vigil reads on each plates-scenes set (75-91% with the usual
 * margins, which cut off the top of a Brazilian plate's city strip). */
export const REDACTION_MARGINS: PlateMargins = { above: 0.8, below: 0.5, side: 0.2, least: REDACTION_LEAST };

/** The box around text lines (their quads' extent), in photo pixels. */
export function textBounds(quads: readonly Quad[]): Box {
  const b = quadBounds(quads.flat());
  return { xmin: b.x0, ymin: b.y0, xmax: b.x1, ymax: b.y1 };
}

/** The plate box of a number whose text lies in `text` (lines `lineHeight` tall), inside the
 * image, in whole pixels. */
export function plateBox(text: Box, lineHeight: number, image: { width: number; height: number }, margins: PlateMargins): Box {
  const width = text.xmax - text.xmin;
  const height = text.ymax - text.ymin;
  const side = Math.max(margins.side * width, ((margins.least?.width ?? 0) * lineHeight - width) / 2);
  const grow = Math.max(0, (margins.least?.height ?? 0) * lineHeight - height - (margins.above + margins.below) * lineHeight);
  const share = margins.above / (margins.above + margins.below);
  return {
    xmin: Math.max(0, Math.round(text.xmin - side)),
    ymin: Math.max(0, Math.round(text.ymin - margins.above * lineHeight - grow * share)),
    xmax: Math.min(image.width, Math.round(text.xmax + side)),
    ymax: Math.min(image.height, Math.round(text.ymax + margins.below * lineHeight + grow * (1 - share))),
  };
}
