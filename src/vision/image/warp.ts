import type { RawImage } from './decode.js';

/** Generic pixel operations on decoded images (pure JS: they run inside inference workers,
 * on crops of a few thousand pixels, where a sharp round trip would cost more than it saves). */

export interface Point {
  x: number;
  y: number;
}

/* Bilinear sampling, as resizeBilinear and warpQuad write it out inline (a function call per
 * pixel was most of their time): a sub-pixel position clamped to the border, its four
 * neighbours (the last row and column repeat), and per channel
 * round((a (1 - fx) + b fx) (1 - fy) + (d (1 - fx) + e fx) fy). */

/** Added to a value from 0 to 255 (a weighted mean of bytes) that a byte store then truncates,
 * rounds it exactly as Math.round does (half up) at half the cost of the call in these loops.
 * Not 0.5: that would carry 0.49999999999999994 up to 1. */
export const ROUND_UP_FROM_HALF = 0.49999999999999994;

/** Resizes with bilinear interpolation (pixel centres aligned, like OpenCV INTER_LINEAR). When
 * shrinking by more than 2x, pixels are first box-averaged so thin strokes are not skipped.
 * Each column's neighbours and weights are found once. */
export function resizeBilinear(img: RawImage, width: number, height: number): RawImage {
  let src = img;
  const fx = img.width / width;
  const fy = img.height / height;
  if (fx >= 2 || fy >= 2) src = boxShrink(img, Math.max(1, Math.floor(fx)), Math.max(1, Math.floor(fy)));
  const { width: w, height: h, channels: ch, data } = src;
  const out = Buffer.alloc(width * height * ch);
  const sx = w / width;
  const sy = h / height;
  const left = new Int32Array(width);
  const step = new Int32Array(width);
  const wx = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const u = (x + 0.5) * sx - 0.5;
    const xc = u < 0 ? 0 : u > w - 1 ? w - 1 : u;
    const x0 = Math.floor(xc);
    left[x] = x0 * ch;
    step[x] = x0 + 1 < w ? ch : 0;
    wx[x] = xc - x0;
  }
  let at = 0;
  for (let y = 0; y < height; y++) {
    const v = (y + 0.5) * sy - 0.5;
    const yc = v < 0 ? 0 : v > h - 1 ? h - 1 : v;
    const y0 = Math.floor(yc);
    const rowA = y0 * w * ch;
    const rowB = (y0 + 1 < h ? y0 + 1 : y0) * w * ch;
    const fy1 = yc - y0;
    const gy = 1 - fy1;
    for (let x = 0; x < width; x++, at += ch) {
      const a = rowA + left[x]!, d = rowB + left[x]!, dx = step[x]!, f = wx[x]!, g = 1 - f;
      for (let c = 0; c < ch; c++) {
        out[at + c] = (data[a + c]! * g + data[a + dx + c]! * f) * gy + (data[d + c]! * g + data[d + dx + c]! * f) * fy1 + ROUND_UP_FROM_HALF;
      }
    }
  }
  return { data: out, width, height, channels: ch };
}

/** Averages each `kx` x `ky` block of pixels into one (rounded; a partial block at the right or
 * bottom edge is dropped): the prefilter before a bilinear shrink by 2x or more. Row by row,
 * the block sums of a whole output row at once, in integers; RGB, every photo's case, has its
 * own loop with the three channels written out (twice as fast on a 1080p frame: 15 against
 * 35 ms, most of fast mode's time before the detector runs). */
export function boxShrink(img: RawImage, kx: number, ky: number): RawImage {
  const w = Math.floor(img.width / kx);
  const h = Math.floor(img.height / ky);
  const ch = img.channels;
  const { data } = img;
  const rowLength = w * ch;
  const stride = img.width * ch;
  const out = Buffer.alloc(rowLength * h);
  const sums = new Uint32Array(rowLength);
  const n = kx * ky;
  for (let y = 0; y < h; y++) {
    sums.fill(0);
    for (let dy = 0; dy < ky; dy++) {
      let p = (y * ky + dy) * stride;
      if (ch === 3) {
        for (let s = 0; s < rowLength; s += 3) {
          let r = 0, g = 0, b = 0;
          for (let dx = 0; dx < kx; dx++, p += 3) {
            r += data[p]!;
            g += data[p + 1]!;
            b += data[p + 2]!;
          }
          sums[s]! += r;
          sums[s + 1]! += g;
          sums[s + 2]! += b;
        }
      } else {
        for (let s = 0; s < rowLength; s += ch) {
          for (let dx = 0; dx < kx; dx++) for (let c = 0; c < ch; c++, p++) sums[s + c]! += data[p]!;
        }
      }
    }
    const at = y * rowLength;
    for (let i = 0; i < rowLength; i++) out[at + i] = sums[i]! / n + ROUND_UP_FROM_HALF;
  }
  return { data: out, width: w, height: h, channels: ch };
}

/** Solves the homography that maps the output rectangle (0,0)-(w,h) onto `quad`
 * (top-left, top-right, bottom-right, bottom-left). */
export function rectToQuadHomography(quad: readonly Point[], w: number, h: number): number[] {
  const src: Point[] = [{ x: 0, y: 0 }, { x: w, y: 0 }, { x: w, y: h }, { x: 0, y: h }];
  const a: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = src[i]!;
    const { x: u, y: v } = quad[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  return [...solveLinear(a, b), 1];
}

function solveLinear(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const p = m[col]![col]!;
    if (Math.abs(p) < 1e-12) throw new Error('Degenerate quadrilateral');
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / p;
      if (f === 0) continue;
      for (let c = col; c <= n; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/** Cuts a quadrilateral out of the image and straightens it into a width x height picture. */
export function warpQuad(img: RawImage, quad: readonly Point[], width: number, height: number): RawImage {
  const hm = rectToQuadHomography(quad, width, height);
  const [h6, h7] = [hm[6]!, hm[7]!];
  // A parallelogram (every rotated line box, padded or widened) maps without perspective: its
  // homography's last row is (0, 0, 1) but for rounding. Skipping the division by it takes about
  // a fifth off a cut's time and moves no sample by more than about 1e-12 of a pixel.
  return sampleQuad(img, hm, width, height, Math.abs(h6) * width + Math.abs(h7) * height >= 1e-12);
}

/** Bilinear samples of `img` at the homography's image of each output pixel centre; without
 * `perspective` the homography is taken as affine. */
function sampleQuad(img: RawImage, hm: readonly number[], width: number, height: number, perspective: boolean): RawImage {
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = hm as [number, number, number, number, number, number, number, number, number];
  const { width: w, height: h, channels: ch, data } = img;
  const out = Buffer.alloc(width * height * ch);
  const right = w - 1;
  const bottom = h - 1;
  let at = 0;
  for (let y = 0; y < height; y++) {
    const yy = y + 0.5;
    const y1h = h1 * yy, y4h = h4 * yy, y7h = h7 * yy;
    for (let x = 0; x < width; x++, at += ch) {
      const xx = x + 0.5;
      let u: number, v: number;
      if (perspective) {
        const z = h6 * xx + y7h + h8;
        u = (h0 * xx + y1h + h2) / z - 0.5;
        v = (h3 * xx + y4h + h5) / z - 0.5;
      } else {
        u = h0 * xx + y1h + h2 - 0.5;
        v = h3 * xx + y4h + h5 - 0.5;
      }
      const xc = u < 0 ? 0 : u > right ? right : u;
      const yc = v < 0 ? 0 : v > bottom ? bottom : v;
      if (!(xc >= 0 && yc >= 0)) continue; // NaN (a degenerate homography): left black, as before
      const x0 = xc | 0; // floor: xc is not negative
      const y0 = yc | 0;
      const dx = x0 < right ? ch : 0;
      const dy = y0 < bottom ? w * ch : 0;
      const fx = xc - x0;
      const fy = yc - y0;
      const gx = 1 - fx;
      const gy = 1 - fy;
      const a = (y0 * w + x0) * ch;
      const b = a + dx, d = a + dy, e = d + dx;
      if (ch === 3) {
        out[at] = (data[a]! * gx + data[b]! * fx) * gy + (data[d]! * gx + data[e]! * fx) * fy + ROUND_UP_FROM_HALF;
        out[at + 1] = (data[a + 1]! * gx + data[b + 1]! * fx) * gy + (data[d + 1]! * gx + data[e + 1]! * fx) * fy + ROUND_UP_FROM_HALF;
        out[at + 2] = (data[a + 2]! * gx + data[b + 2]! * fx) * gy + (data[d + 2]! * gx + data[e + 2]! * fx) * fy + ROUND_UP_FROM_HALF;
      } else {
        for (let c = 0; c < ch; c++) out[at + c] = (data[a + c]! * gx + data[b + c]! * fx) * gy + (data[d + c]! * gx + data[e + c]! * fx) * fy + ROUND_UP_FROM_HALF;
      }
    }
  }
  return { data: out, width, height, channels: ch };
}

/** Rotates by a multiple of 90 degrees; `turns` counts quarter turns counter-clockwise. */
export function rotateQuarter(img: RawImage, turns: number): RawImage {
  const t = ((turns % 4) + 4) % 4;
  if (t === 0) return img;
  const { width: w, height: h, channels: ch, data } = img;
  const ow = t === 2 ? w : h;
  const oh = t === 2 ? h : w;
  const out = Buffer.alloc(data.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let ox: number;
      let oy: number;
      if (t === 1) { ox = y; oy = w - 1 - x; } // counter-clockwise
      else if (t === 2) { ox = w - 1 - x; oy = h - 1 - y; }
      else { ox = h - 1 - y; oy = x; } // clockwise
      const si = (y * w + x) * ch;
      const di = (oy * ow + ox) * ch;
      for (let c = 0; c < ch; c++) out[di + c] = data[si + c]!;
    }
  }
  return { data: out, width: ow, height: oh, channels: ch };
}

/** Copies a rectangular region (clamped to the image). */
export function cropRect(img: RawImage, x: number, y: number, width: number, height: number): RawImage {
  const x0 = Math.max(0, Math.min(img.width - 1, Math.floor(x)));
  const y0 = Math.max(0, Math.min(img.height - 1, Math.floor(y)));
  const w = Math.max(1, Math.min(img.width - x0, Math.round(width)));
  const h = Math.max(1, Math.min(img.height - y0, Math.round(height)));
  const ch = img.channels;
  const out = Buffer.alloc(w * h * ch);
  for (let r = 0; r < h; r++) {
    img.data.copy(out, r * w * ch, ((y0 + r) * img.width + x0) * ch, ((y0 + r) * img.width + x0 + w) * ch);
  }
  return { data: out, width: w, height: h, channels: ch };
}

/** Luma (BT.601) of each pixel. */
export function toGray(img: RawImage): Uint8Array {
  const n = img.width * img.height;
  const out = new Uint8Array(n);
  if (img.channels === 1) {
    out.set(img.data.subarray(0, n));
    return out;
  }
  for (let i = 0; i < n; i++) {
    const j = i * 3;
    out[i] = Math.round(0.299 * img.data[j]! + 0.587 * img.data[j + 1]! + 0.114 * img.data[j + 2]!);
  }
  return out;
}
