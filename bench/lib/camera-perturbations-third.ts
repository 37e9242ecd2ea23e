import sharp, { type Kernel, type Sharp } from 'sharp';
import type { Perturbation } from './camera-perturbations.js';

/** A third perturbation generator, written after the analyser's cell grid, colour cue and heavy
 * blur rule were made while looking at the second generator's misses; it was run once and the
 * analyser was not changed after, so its figures are the untouched ones. */

const jpeg = (s: Sharp, quality = 82) => s.jpeg({ quality }).toBuffer();
const px = (w: number, v: number) => Math.max(1, (v * w) / 320);

async function layer(base: Buffer, w: number, h: number, body: string, blur = 0): Promise<Buffer> {
  let l = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`)).png().toBuffer();
  if (blur >= 0.3) l = await sharp(l).blur(blur).png().toBuffer();
  return jpeg(sharp(base).composite([{ input: l }]));
}

/** sharp wants at least 3 rows: the line sits in the middle one. */
function rowKernel(len: number): Kernel {
  return { width: len, height: 3, kernel: Array.from({ length: 3 * len }, (_, i) => (i >= len && i < 2 * len ? 1 / len : 0)) };
}

/** The view cropped at (fx, fy) of its size and scaled back: the camera aimed or zoomed elsewhere. */
function reframed(scale: number, fx: number, fy: number): Perturbation['make'] {
  return async (b, w, h) => {
    const cw = Math.round(w / scale);
    const ch = Math.round(h / scale);
    const left = Math.max(0, Math.min(w - cw, Math.round((w - cw) / 2 + fx * w)));
    const top = Math.max(0, Math.min(h - ch, Math.round((h - ch) / 2 + fy * h)));
    return jpeg(sharp(b).extract({ left, top, width: cw, height: ch }).resize(w, h, { fit: 'fill' }));
  };
}

function turned(deg: number): Perturbation['make'] {
  return async (b, w, h) => {
    const r = await sharp(b).rotate(deg, { background: '#303030' }).toBuffer({ resolveWithObject: true });
    const cw = Math.round(w * 0.78);
    const ch = Math.round(h * 0.78);
    return jpeg(sharp(r.data).extract({ left: Math.round((r.info.width - cw) / 2), top: Math.round((r.info.height - ch) / 2), width: cw, height: ch }).resize(w, h, { fit: 'fill' }));
  };
}

export const PERTURBATIONS_THIRD: Perturbation[] = [
  // Negatives.
  { name: 'sunnier', make: (b) => jpeg(sharp(b).linear(1.15, 10)) },
  { name: 'night grain', make: async (b, w, h) => {
    const noise = await sharp({ create: { width: w, height: h, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 0, sigma: 16 } } }).png().toBuffer();
    return jpeg(sharp(await jpeg(sharp(b).linear(0.5, 0))).composite([{ input: noise, blend: 'add' }]));
  } },
  { name: 'pole shadow', make: (b, w, h) => layer(b, w, h, `<polygon points="${w * 0.55},0 ${w * 0.58},0 ${w * 0.4},${h} ${w * 0.36},${h}" fill="#000" fill-opacity="0.4"/>`, px(w, 1)) },
  { name: 'pedestrian', make: (b, w, h) => layer(b, w, h, `<rect x="${w * 0.7}" y="${h * 0.55}" width="${w * 0.025}" height="${h * 0.16}" rx="3" fill="#2b3550"/><circle cx="${w * 0.7125}" cy="${h * 0.53}" r="${w * 0.012}" fill="#d1a07a"/>`) },
  { name: 'magenta tint', make: (b) => jpeg(sharp(b).recomb([[1.05, 0, 0.03], [0, 0.9, 0], [0.03, 0, 1.05]])) },
  { name: 'rescaled stream q25', make: async (b, w, h) => jpeg(sharp(await sharp(b).resize(Math.round(w * 0.85)).toBuffer()).resize(w, h, { fit: 'fill' }), 25) },
  { name: 'jitter 0.4%', make: reframed(1.004, 0.002, 0) },
  // Blur.
  { name: 'soft focus', expect: 'Blur', make: (b, w) => jpeg(sharp(b).blur(px(w, 3))) },
  { name: 'pan smear', expect: 'Blur', make: (b, w) => jpeg(sharp(b).convolve(rowKernel(Math.round(px(w, 9)) | 1))) },
  { name: 'quarter-size smear', expect: 'Blur', make: async (b, w, h) => jpeg(sharp(await sharp(b).resize(Math.round(w / 5)).toBuffer()).resize(w, h, { fit: 'fill' })) },
  { name: 'mist on the lens', expect: 'Blur', make: async (b, w, h) => layer(await jpeg(sharp(b).blur(px(w, 2.5))), w, h, `<rect width="${w}" height="${h}" fill="#f0f0f0" fill-opacity="0.3"/>`) },
  // Obstruction.
  { name: 'plastic bag', expect: 'Obstruction', make: (b, w, h) => layer(b, w, h, `<ellipse cx="${w * 0.35}" cy="${h * 0.4}" rx="${w * 0.32}" ry="${h * 0.42}" fill="#f4f4f0" fill-opacity="0.88"/>`, px(w, 5)) },
  { name: 'sticker', expect: 'Obstruction', make: (b, w, h) => layer(b, w, h, `<rect x="${w * 0.3}" y="${h * 0.25}" width="${w * 0.45}" height="${h * 0.55}" fill="#e8c21a"/>`) },
  { name: 'board in front', expect: 'Obstruction', make: (b, w, h) => layer(b, w, h, `<polygon points="${w * 0.5},0 ${w},0 ${w},${h} ${w * 0.6},${h}" fill="#3c3c3c"/>`) },
  { name: 'red paint', expect: 'Obstruction', make: (b, w, h) => layer(b, w, h, `<circle cx="${w * 0.62}" cy="${h * 0.55}" r="${h * 0.42}" fill="#8a1f1f"/>`, px(w, 4)) },
  { name: 'white van parked at the lens', expect: 'Obstruction', make: (b, w, h) => layer(b, w, h, `<rect x="${-w * 0.05}" y="${h * 0.3}" width="${w * 0.65}" height="${h * 0.8}" fill="#eceae6"/>`) },
  // Glare.
  { name: 'low sun with halo', expect: 'Glare', make: (b, w, h) => layer(b, w, h, `<defs><radialGradient id="s"><stop offset="0" stop-color="#fff"/><stop offset="0.5" stop-color="#fff"/><stop offset="1" stop-color="#fff6e0" stop-opacity="0"/></radialGradient></defs><circle cx="${w * 0.15}" cy="${h * 0.2}" r="${Math.max(w, h) * 0.42}" fill="url(#s)"/>`) },
  { name: 'torch into the lens', expect: 'Glare', make: async (b, w, h) => layer(await jpeg(sharp(b).linear(0.5, 0)), w, h, `<defs><radialGradient id="t"><stop offset="0" stop-color="#fff"/><stop offset="0.6" stop-color="#fff"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs><circle cx="${w * 0.6}" cy="${h * 0.45}" r="${Math.max(w, h) * 0.3}" fill="url(#t)"/>`) },
  { name: 'overexposed', expect: 'Glare', make: (b) => jpeg(sharp(b).linear(2.2, 50)) },
  // Position change.
  { name: 'pan right 6%', expect: 'Position change', make: reframed(1.07, 0.06, 0) },
  { name: 'tilt down 12%', expect: 'Position change', make: reframed(1.14, 0, 0.12) },
  { name: 'roll 5 deg', expect: 'Position change', make: turned(5) },
  { name: 'zoom 1.25', expect: 'Position change', make: reframed(1.25, 0, 0) },
  { name: 'diagonal 5%', expect: 'Position change', make: reframed(1.1, -0.05, -0.05) },
];
