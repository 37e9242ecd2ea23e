import sharp, { type Kernel, type Sharp } from 'sharp';

/** Deterministic perturbations of a base frame: what a tampered camera shows (by anomaly key)
 * and everyday changes of a healthy one (negatives). */
export interface Perturbation {
  name: string;
  /** The anomaly an operator must hear about; undefined for a negative. */
  expect?: 'Blur' | 'Obstruction' | 'Glare' | 'Position change';
  make: (base: Buffer, w: number, h: number) => Promise<Buffer>;
}

const jpeg = (s: Sharp) => s.jpeg({ quality: 85 }).toBuffer();
const svg = (w: number, h: number, body: string) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`);

function motionKernel(len: number): Kernel {
  // sharp wants at least 3 rows: the line sits in the middle one.
  return { width: len, height: 3, kernel: Array.from({ length: len * 3 }, (_, i) => (i >= len && i < 2 * len ? 1 / len : 0)) };
}

/** Crop a shifted window and scale back: the camera looking slightly elsewhere. */
function shifted(fx: number, fy: number): Perturbation['make'] {
  return async (b, w, h) => {
    const dx = Math.round(w * Math.abs(fx));
    const dy = Math.round(h * Math.abs(fy));
    const left = fx >= 0 ? dx : 0;
    const top = fy >= 0 ? dy : 0;
    return jpeg(sharp(b).extract({ left, top, width: w - dx, height: h - dy }).resize(w, h, { fit: 'fill' }));
  };
}

function rotated(deg: number): Perturbation['make'] {
  return async (b, w, h) => {
    const r = await sharp(b).rotate(deg, { background: '#808080' }).toBuffer({ resolveWithObject: true });
    const cw = Math.round(w * 0.8);
    const ch = Math.round(h * 0.8);
    return jpeg(sharp(r.data).extract({ left: Math.round((r.info.width - cw) / 2), top: Math.round((r.info.height - ch) / 2), width: cw, height: ch }).resize(w, h));
  };
}

function zoomed(f: number): Perturbation['make'] {
  return async (b, w, h) => {
    const cw = Math.round(w / f);
    const ch = Math.round(h / f);
    return jpeg(sharp(b).extract({ left: Math.round((w - cw) / 2), top: Math.round((h - ch) / 2), width: cw, height: ch }).resize(w, h));
  };
}

function cover(shape: (w: number, h: number) => string, blurPx = 0): Perturbation['make'] {
  return async (b, w, h) => {
    let overlay = sharp(svg(w, h, shape(w, h))).png();
    if (blurPx) overlay = sharp(await overlay.toBuffer()).blur(blurPx).png();
    return jpeg(sharp(b).composite([{ input: await overlay.toBuffer() }]));
  };
}

function sun(cxf: number, cyf: number, rf: number): Perturbation['make'] {
  return cover((w, h) => `<defs><radialGradient id="g"><stop offset="0" stop-color="#fff" stop-opacity="1"/><stop offset="0.6" stop-color="#fff" stop-opacity="1"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs><circle cx="${w * cxf}" cy="${h * cyf}" r="${Math.max(w, h) * rf}" fill="url(#g)"/>`);
}

export const PERTURBATIONS: Perturbation[] = [
  // Negatives: a healthy camera on another day.
  { name: 're-encoded q40', make: (b) => jpeg(sharp(b).jpeg({ quality: 40 })) },
  { name: 'darker (evening)', make: (b) => jpeg(sharp(b).linear(0.55, 0)) },
  // Auto-exposure keeps a brighter day from clipping; a clipped frame is overexposure (Glare).
  { name: 'brighter (noon)', make: (b) => jpeg(sharp(b).linear(0.85, 40)) },
  { name: 'grayscale (infrared)', make: (b) => jpeg(sharp(b).grayscale().linear(0.9, 10)) },
  { name: 'sensor noise', make: async (b, w, h) => {
    const noise = await sharp({ create: { width: w, height: h, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 0, sigma: 12 } } }).png().toBuffer();
    return jpeg(sharp(b).composite([{ input: noise, blend: 'add' }]));
  } },
  { name: 'vibration 1%', make: shifted(0.01, 0) },
  { name: 'car passing', make: cover((w, h) => `<rect x="${w * 0.35}" y="${h * 0.55}" width="${w * 0.22}" height="${h * 0.18}" rx="8" fill="#a02828"/><rect x="${w * 0.38}" y="${h * 0.5}" width="${w * 0.14}" height="${h * 0.08}" fill="#334"/>`) },
  { name: 'rain streaks', make: cover((w, h) => Array.from({ length: 60 }, (_, i) => `<line x1="${(i * 37) % w}" y1="${(i * 53) % h}" x2="${((i * 37) % w) + 4}" y2="${((i * 53) % h) + 18}" stroke="#ddd" stroke-opacity="0.5" stroke-width="1"/>`).join('')) },
  // Blur.
  { name: 'gaussian blur s2', expect: 'Blur', make: (b, w) => jpeg(sharp(b).blur(Math.max(0.6, (2 * w) / 320))) },
  { name: 'gaussian blur s4', expect: 'Blur', make: (b, w) => jpeg(sharp(b).blur((4 * w) / 320)) },
  { name: 'gaussian blur s8', expect: 'Blur', make: (b, w) => jpeg(sharp(b).blur((8 * w) / 320)) },
  { name: 'motion blur 15', expect: 'Blur', make: (b, w) => jpeg(sharp(b).convolve(motionKernel(Math.max(3, Math.round((15 * w) / 320)) | 1))) },
  // Obstruction.
  { name: 'black half cover', expect: 'Obstruction', make: cover((w, h) => `<rect width="${w / 2}" height="${h}" fill="#0a0a0a"/>`) },
  { name: 'grey 40% cover', expect: 'Obstruction', make: cover((w, h) => `<rect y="${h * 0.6}" width="${w}" height="${h * 0.4}" fill="#6a6a6a"/>`) },
  { name: 'full black cover', expect: 'Obstruction', make: cover((w, h) => `<rect width="${w}" height="${h}" fill="#050505"/>`) },
  { name: 'hand (blurred skin blob)', expect: 'Obstruction', make: cover((w, h) => `<ellipse cx="${w * 0.3}" cy="${h * 0.5}" rx="${w * 0.35}" ry="${h * 0.55}" fill="#c68e6e"/>`, 12) },
  { name: 'white bag corner', expect: 'Obstruction', make: cover((w, h) => `<polygon points="${w},0 ${w},${h} ${w * 0.3},${h} ${w * 0.6},0" fill="#e8e8e4"/>`) },
  { name: 'spray paint', expect: 'Obstruction', make: cover((w, h) => `<circle cx="${w * 0.55}" cy="${h * 0.45}" r="${h * 0.45}" fill="#2a3a8a"/>`, 20) },
  // Glare.
  { name: 'sun glare centre', expect: 'Glare', make: sun(0.5, 0.45, 0.35) },
  { name: 'sun glare corner', expect: 'Glare', make: sun(0.85, 0.15, 0.45) },
  { name: 'blown exposure', expect: 'Glare', make: (b) => jpeg(sharp(b).linear(2.6, 70)) },
  // Position change.
  { name: 'shift 5%', expect: 'Position change', make: shifted(0.05, 0.02) },
  { name: 'shift 12%', expect: 'Position change', make: shifted(-0.12, 0) },
  { name: 'tilt 20%', expect: 'Position change', make: shifted(0, 0.2) },
  { name: 'rotate 4 deg', expect: 'Position change', make: rotated(4) },
  { name: 'rotate 12 deg', expect: 'Position change', make: rotated(12) },
  { name: 'zoom 1.2', expect: 'Position change', make: zoomed(1.2) },
  { name: 'zoom 1.5', expect: 'Position change', make: zoomed(1.5) },
];
