import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/decode.js';
import { CLOSE_UP_ZOOM, decodePlates, DETECTOR_HEIGHT, DETECTOR_WIDTH, toDetectorInput } from './plate-detector-model.js';

/** Six maps of rows x cols: heat, pooled heat, log w, log h, offset x, offset y. */
function maps(rows: number, cols: number, peaks: Array<{ x: number; y: number; heat: number; w: number; h: number; ox?: number; oy?: number }>): Float32Array {
  const plane = rows * cols;
  const out = new Float32Array(6 * plane);
  for (const p of peaks) {
    const i = p.y * cols + p.x;
    out[i] = p.heat;
    out[2 * plane + i] = Math.log(p.w);
    out[3 * plane + i] = Math.log(p.h);
    out[4 * plane + i] = p.ox ?? 0;
    out[5 * plane + i] = p.oy ?? 0;
  }
  // The pooled map: each cell's 3x3 maximum, as the exported graph computes it.
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) {
    let m = 0;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const yy = y + dy, xx = x + dx;
      if (yy >= 0 && yy < rows && xx >= 0 && xx < cols) m = Math.max(m, out[yy * cols + xx]!);
    }
    out[plane + y * cols + x] = m;
  }
  return out;
}

describe('plate detector decoding', () => {
  it('keeps 3x3 peaks above the floor, best first, boxes in photo pixels', () => {
    const m = maps(10, 20, [
      { x: 5, y: 4, heat: 0.9, w: 40, h: 12, ox: 0.5, oy: 0.25 },
      { x: 6, y: 4, heat: 0.6, w: 40, h: 12 }, // beside a higher peak: not a plate of its own
      { x: 15, y: 8, heat: 0.5, w: 20, h: 8 },
      { x: 1, y: 1, heat: 0.2, w: 20, h: 8 }, // under the floor
    ]);
    const found = decodePlates(m, 10, 20, 0.5, 0.3);
    expect(found.map((f) => f.score)).toEqual([expect.closeTo(0.9, 6), expect.closeTo(0.5, 6)]);
    // Centre (5.5, 4.25) cells x 4 px = (22, 17) input px, 40 x 12 wide; photo = input / 0.5.
    const b = found[0]!.box;
    expect([b.xmin, b.ymin, b.xmax, b.ymax].map((v) => Math.round(v * 100) / 100)).toEqual([4, 22, 84, 46]);
  });
});

describe('plate detector input', () => {
  it('fits the photo into 640 x 384 top-left, grey beyond it, grey photos over three channels', async () => {
    const photo: RawImage = { data: Buffer.alloc(720 * 1280, 255), width: 1280, height: 720, channels: 1 };
    const { input, scale } = await toDetectorInput(photo);
    expect(scale).toBe(0.5);
    const plane = DETECTOR_WIDTH * DETECTOR_HEIGHT;
    expect(input).toHaveLength(3 * plane);
    expect([input[0], input[plane], input[2 * plane]]).toEqual([1, 1, 1]);
    // Row 360 is below the 360-row photo: padding.
    expect(input[360 * DETECTOR_WIDTH]).toBeCloseTo(114 / 255, 6);
  });

  it('turns the canvas for a photo taller than wide: an upright phone photo on 384 x 640', async () => {
    const photo = (width: number, height: number): RawImage => ({ data: Buffer.alloc(width * height * 3, 255), width, height, channels: 3 });
    const upright = await toDetectorInput(photo(918, 1632));
    expect(upright.canvas).toEqual({ width: 384, height: 640 });
    // On 640 x 384 it was limited by its height: 384 / 1632.
    expect(upright.scale).toBeCloseTo(640 / 1632, 9);
    expect(upright.input).toHaveLength(3 * 384 * 640);
    // The photo fills the canvas's height; grey beside it (918 x 0.392 = 360 columns).
    expect(upright.input[639 * 384]).toBe(1);
    expect(upright.input[361]).toBeCloseTo(114 / 255, 6);
    // Square and wide photos keep the training frames' canvas.
    expect((await toDetectorInput(photo(1000, 1000))).canvas).toEqual({ width: DETECTOR_WIDTH, height: DETECTOR_HEIGHT });
    expect((await toDetectorInput(photo(1024, 768))).canvas).toEqual({ width: DETECTOR_WIDTH, height: DETECTOR_HEIGHT });
  });

  it('places a photo on the larger canvas a finer look asks for, never larger than the photo at its own size', async () => {
    const grey = (width: number, height: number): RawImage => ({ data: Buffer.alloc(width * height, 128), width, height, channels: 1 });
    const frame = await toDetectorInput(grey(1920, 1080), 1, undefined, 960);
    expect(frame.canvas).toEqual({ width: 960, height: 576 });
    expect(frame.scale).toBe(0.5);
    expect((await toDetectorInput(grey(1080, 1920), 1, undefined, 960)).canvas).toEqual({ width: 576, height: 960 });
    // An 800 x 600 photo is seen at its own size at most, on the canvas of the same shape that holds it.
    const small = await toDetectorInput(grey(800, 600), 1, undefined, 960);
    expect(small.canvas).toEqual({ width: 800, height: 480 });
    expect(small.scale).toBe(0.8);
    // The default and the zoomed look keep the training frames' canvas and scale.
    expect((await toDetectorInput(grey(1920, 1080))).canvas).toEqual({ width: DETECTOR_WIDTH, height: DETECTOR_HEIGHT });
    expect((await toDetectorInput(grey(1920, 1080), CLOSE_UP_ZOOM, undefined, 960)).scale).toBeCloseTo(CLOSE_UP_ZOOM / 3, 9);
  });

  it('puts a zoomed photo on a smaller canvas, a multiple of 32 with grey around it, not the whole input', async () => {
    const photo: RawImage = { data: Buffer.alloc(720 * 1280, 255), width: 1280, height: 720, channels: 1 };
    const { input, scale, canvas } = await toDetectorInput(photo, CLOSE_UP_ZOOM);
    // 1280 x 720 at a quarter of the input's scale is 160 x 90, with 64 grey pixels beyond it.
    expect(scale).toBe(0.125);
    expect(canvas).toEqual({ width: 224, height: 160 });
    expect(input).toHaveLength(3 * 224 * 160);
    expect([input[159], input[89 * 224]]).toEqual([1, 1]);
    expect(input[160]).toBeCloseTo(114 / 255, 6);
    expect(input[90 * 224]).toBeCloseTo(114 / 255, 6);
    // At full zoom the canvas is the whole input.
    expect((await toDetectorInput(photo)).canvas).toEqual({ width: DETECTOR_WIDTH, height: DETECTOR_HEIGHT });
  });

  it('shrinks a zoomed look at a photo seen whole from that view, within a grey level of the photo shrunk', async () => {
    // A 1280 x 720 photo of soft diagonal bands (a shrink of sharp edges differs by kernel).
    const scene = (): RawImage => {
      const data = Buffer.alloc(1280 * 720 * 3);
      for (let y = 0; y < 720; y++) for (let x = 0; x < 1280; x++) {
        const v = 128 + 100 * Math.sin((x + 2 * y) / 90);
        data.fill(Math.round(v), (y * 1280 + x) * 3, (y * 1280 + x) * 3 + 3);
      }
      return { data, width: 1280, height: 720, channels: 3 };
    };
    const seen = scene();
    await toDetectorInput(seen);
    // Pixels changed after the whole look do not reach the zoomed one: it is shrunk from the view.
    seen.data.fill(0, 0, 3 * 1280 * 8);
    const fromView = await toDetectorInput(seen, CLOSE_UP_ZOOM);
    const fresh = await toDetectorInput(scene(), CLOSE_UP_ZOOM);
    expect(fromView.canvas).toEqual(fresh.canvas);
    let worst = 0;
    for (let i = 0; i < fresh.input.length; i++) worst = Math.max(worst, Math.abs(fresh.input[i]! - fromView.input[i]!));
    expect(worst * 255).toBeLessThan(2);
  });
});
