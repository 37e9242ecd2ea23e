import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { findEuroBand, isBandBlue } from './euro-band.js';
import type { Box } from './plate.types.js';

type Rgb = readonly [number, number, number];
const BAND: Rgb = [0, 51, 153];
const WHITE: Rgb = [235, 235, 230];

/** A 400 x 200 photo of `background` with rectangles painted on it, in order. */
function photo(background: Rgb, rects: ReadonlyArray<{ box: Box; colour: Rgb }>, channels: 1 | 3 = 3): RawImage {
  const width = 400;
  const height = 200;
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const rect = [...rects].reverse().find(({ box }) => x >= box.xmin && x < box.xmax && y >= box.ymin && y < box.ymax);
      data.set(rect?.colour ?? background, 3 * (y * width + x));
    }
  }
  if (channels === 3) return { data, width, height, channels };
  const grey = Buffer.alloc(width * height);
  for (let i = 0; i < grey.length; i++) grey[i] = data[3 * i + 1]!;
  return { data: grey, width, height, channels: 1 };
}

// A number 40 px tall from x 150 to 330 around y 100; a European plate around it (110 mm to 75 mm
// characters: 29 px above and below the middle), its band 24 px wide, 12 px left of the number.
const number: Box = { xmin: 150, ymin: 80, xmax: 330, ymax: 120 };
const plate: Box = { xmin: 110, ymin: 71, xmax: 340, ymax: 129 };
const band: Box = { xmin: 114, ymin: 71, xmax: 138, ymax: 129 };
const grey: Rgb = [90, 90, 90];

describe('findEuroBand', () => {
  it('finds the blue strip at the plate\'s left end', () => {
    const found = findEuroBand(photo(grey, [{ box: plate, colour: WHITE }, { box: band, colour: BAND }]), number, 40);
    expect(found).not.toBeNull();
    expect(found!.xmin).toBe(114);
    expect(found!.xmax).toBe(138);
  });

  it('finds it dark, as a night photo keeps it', () => {
    const dark = photo([20, 20, 20], [{ box: plate, colour: [110, 110, 105] }, { box: band, colour: [15, 25, 70] }]);
    expect(findEuroBand(dark, number, 40)).not.toBeNull();
  });

  it('finds none on a plate without one, nor in a grey photo', () => {
    expect(findEuroBand(photo(grey, [{ box: plate, colour: WHITE }]), number, 40)).toBeNull();
    expect(findEuroBand(photo(grey, [{ box: plate, colour: WHITE }, { box: band, colour: BAND }], 1), number, 40)).toBeNull();
  });

  it('takes no blue paint beside the plate for a band: a body that runs past the plate\'s edges', () => {
    // A blue car's body showing between the plate's narrow margin and a dark recess.
    const body: Box = { xmin: 100, ymin: 20, xmax: 130, ymax: 180 };
    const usPlate: Box = { xmin: 130, ymin: 71, xmax: 340, ymax: 129 };
    const scene = photo([20, 20, 20], [{ box: body, colour: [30, 60, 140] }, { box: usPlate, colour: WHITE }]);
    expect(findEuroBand(scene, number, 40)).toBeNull();
    // A blue car all round a white plate: the blue runs on beyond the band's width.
    expect(findEuroBand(photo([30, 60, 140], [{ box: { ...usPlate, xmin: 140 }, colour: WHITE }]), number, 40)).toBeNull();
  });

  it('takes no blue-grey paint for blue, nor a blue plate\'s number for a white plate\'s', () => {
    expect(isBandBlue(133, 154, 183)).toBe(false); // silver under a blue sky
    expect(isBandBlue(...BAND)).toBe(true);
    const bluePlate = photo(grey, [{ box: plate, colour: [20, 60, 170] }, { box: { ...band, xmin: 100, xmax: 114 }, colour: WHITE }]);
    expect(findEuroBand(bluePlate, number, 40)).toBeNull();
  });

  it('finds none where a photo cuts the plate off at its left', () => {
    const cut = photo(grey, [{ box: plate, colour: WHITE }, { box: band, colour: BAND }]);
    expect(findEuroBand(cut, { ...number, xmin: 60, xmax: 140 }, 40)).toBeNull();
  });

  it('finds the band of a plate crop at the picture\'s left edge, not blue artwork further in', () => {
    // A crop of the whole plate: the band from x 0 to 24, the number from 36 on.
    const crop = photo(WHITE, [{ box: { xmin: 0, ymin: 71, xmax: 24, ymax: 129 }, colour: BAND }]);
    const wide: Box = { xmin: 36, ymin: 80, xmax: 380, ymax: 120 };
    expect(findEuroBand(crop, wide, 40)).toMatchObject({ xmin: 0, xmax: 24 });
    // A blue shield in a white disc, a line height in from the edge (New Jersey's memorial plate).
    const artwork = photo(WHITE, [{ box: { xmin: 40, ymin: 75, xmax: 64, ymax: 125 }, colour: BAND }]);
    expect(findEuroBand(artwork, { ...wide, xmin: 70 }, 40)).toBeNull();
  });
});
