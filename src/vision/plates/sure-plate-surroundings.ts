import type { Box } from '../../services/recognition/plate-reader.port.js';
import { overlapRatio } from './plate-dedupe.js';

/** Around a plate read surely: its plate's small print (state name, slogan, dealer frame,
 * stickers) and its car's badges (make and model, 3 to 5 line heights above the number; the
 * finer pass read them as FIAT, TOYOTA, NISS beside a sure plate). Another car's plate is
 * farther: beside it by a car's width, several plate widths. */
export function surroundings(p: { textBox: Box; lineHeight: number }): Box {
  const w = 1.5 * (p.textBox.xmax - p.textBox.xmin);
  const h = p.lineHeight;
  return { xmin: p.textBox.xmin - w, xmax: p.textBox.xmax + w, ymin: p.textBox.ymin - 6 * h, ymax: p.textBox.ymax + 2 * h };
}

const centreInside = (b: Box, area: Box) => {
  const [x, y] = [(b.xmin + b.xmax) / 2, (b.ymin + b.ymax) / 2];
  return x >= area.xmin && x <= area.xmax && y >= area.ymin && y <= area.ymax;
};

interface Reading { plate: string; score: number; textBox: Box; lineHeight: number }

/** Drops the readings that stand in the surroundings of a surer plate read at `sureScore` or
 * above: its car's model badge (CAMRY, SANDERO, LAGUNA), a dealer's name or phone number, a
 * sign on the bumper. They fit some country's generic format, and a finer pass would not even
 * have looked there. Only a sure reading that holds a digit clears its surroundings: a model
 * name read surely fits a generic format too, and the plate a few line heights under the badge
 * must not go with it. A reading overlapping the sure one is the same line, left to dedupe. */
export function dropTextAroundSurePlates<T extends Reading>(items: readonly T[], sureScore: number): T[] {
  const clearing = items.filter((s) => s.score >= sureScore && /[0-9]/.test(s.plate));
  return items.filter((it) => !clearing.some((s) => s !== it && s.score > it.score
    && overlapRatio(s.textBox, it.textBox) <= 0.5 && centreInside(it.textBox, surroundings(s))));
}
