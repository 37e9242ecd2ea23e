import type { Box } from './plate.types.js';
import { overlapRatio } from '../image/box-overlap.js';
import { SMALL_PRINT } from './plate-dedupe.js';

/** Around a plate read surely: its plate's small print (state name, slogan, dealer frame,
 * stickers) and its car's badges (make and model, 3 to 5 line heights above the number; the
 * finer pass read them as FIAT, TOYOTA, NISS beside a sure plate). Another car's plate is
 * farther: beside it by a car's width, several plate widths. */
export function surroundings(p: { textBox: Box; lineHeight: number }): Box {
  const w = 1.5 * (p.textBox.xmax - p.textBox.xmin);
  const h = p.lineHeight;
  return { xmin: p.textBox.xmin - w, xmax: p.textBox.xmax + w, ymin: p.textBox.ymin - 6 * h, ymax: p.textBox.ymax + 2 * h };
}

/** Whether the centre of `b` lies in `area`: text whose middle is in a plate's surroundings
 * belongs to them, however far its ends reach. */
export const centreInside = (b: Box, area: Box) => {
  const [x, y] = [(b.xmin + b.xmax) / 2, (b.ymin + b.ymax) / 2];
  return x >= area.xmin && x <= area.xmax && y >= area.ymin && y <= area.ymax;
};

interface Reading { plate: string; score: number; textBox: Box; lineHeight: number }

const hasDigit = (plate: string) => /[0-9]/.test(plate);

/** Drops the readings that stand in the surroundings of a surer plate with a digit in it: its
 * car's model badge (CAMRY, SANDERO, LAGUNA), a dealer's name or phone number, a sign on the
 * bumper. They fit some country's generic format, and beside a plate read surely (`sureScore`
 * or above) a finer pass would not even have looked there, so every lesser reading goes there;
 * beside a less sure plate only words without a digit go (no plate number sits a few line
 * heights from another, and a vanity plate would be the car's only plate). A plate without a
 * digit clears nothing: a model name read surely fits a generic format too, and the plate a few
 * line heights under the badge must not go with it. Nor does small print clear a line a good
 * deal taller than its own (SMALL_PRINT, as dropSubordinateText): a state's name read as a plate
 * (ARIZONA as ARZ20NA) took the vanity number under it (BUKTLST) with it. A reading overlapping
 * the plate is the same line, left to dedupe. */
export function dropTextAroundPlates<T extends Reading>(items: readonly T[], sureScore: number): T[] {
  const clears = (s: T, it: T) => s !== it && hasDigit(s.plate) && s.score > it.score
    && (s.score >= sureScore || !hasDigit(it.plate))
    && it.lineHeight < SMALL_PRINT * s.lineHeight
    && overlapRatio(s.textBox, it.textBox) <= 0.5 && centreInside(it.textBox, surroundings(s));
  return items.filter((it) => !items.some((s) => clears(s, it)));
}
