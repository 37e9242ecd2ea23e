/**
 * Deterministic synthetic evaluation images for bench:ocr: VINs on door-jamb stickers and
 * windshield plates, trailer IDs painted horizontally or stacked top to bottom, boat numbers on
 * hulls. Seeded, so every run renders the same pixels; DejaVu fonts only (present wherever
 * sharp renders SVG text on this project's machines).
 */
import sharp from 'sharp';

export interface SyntheticCase { name: string; bytes: Buffer; expect: string[] }

/** mulberry32: small, fast, good enough to pick values and nuisances reproducibly. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const chars = (rnd: () => number, alphabet: string, n: number) => Array.from({ length: n }, () => pick(rnd, alphabet.split(''))).join('');

const VIN_LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
const VIN_ALPHABET = VIN_LETTERS + '0123456789';
const TRANSLIT: Record<string, number> = { A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H: 8, J: 1, K: 2, L: 3, M: 4, N: 5, P: 7, R: 9, S: 2, T: 3, U: 4, V: 5, W: 6, X: 7, Y: 8, Z: 9 };
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

/** 49 CFR 565 check digit, written here independently of the reader's own code so a bug in
 * one does not hide in the other. */
export function northAmericanCheckDigit(vin: string): string {
  const sum = vin.split('').reduce((s, c, i) => s + (/\d/.test(c) ? Number(c) : TRANSLIT[c]!) * WEIGHTS[i]!, 0);
  return sum % 11 === 10 ? 'X' : String(sum % 11);
}

/** North American VINs (first character 1-5) with a valid position 9; model-year letters and
 * plant codes drawn from the VIN alphabet. */
export function northAmericanVins(n: number, seed = 5): string[] {
  const rnd = seeded(seed);
  const wmis = ['1HG', '1FT', '1G1', '2T1', '3VW', '4T1', '5YJ', '1N4', '2HG', '3FA', '5NP', '1C4', '4S4', '5UX'];
  return Array.from({ length: n }, () => {
    const body = pick(rnd, wmis) + chars(rnd, VIN_ALPHABET, 5) + '0' + pick(rnd, 'ABCDEFGHJKLMNPRSTVWXY123456789'.split('')) + chars(rnd, VIN_ALPHABET, 1) + chars(rnd, '0123456789', 6);
    return body.slice(0, 8) + northAmericanCheckDigit(body) + body.slice(9);
  });
}

/** ISO 3779 VINs from elsewhere (Europe, Japan, Korea): no check digit is required. */
export function iso3779Vins(n: number, seed = 6): string[] {
  const rnd = seeded(seed);
  const wmis = ['WVW', 'WBA', 'WDB', 'VF1', 'ZFA', 'SAL', 'JTD', 'JHM', 'KMH', 'TMB', 'YV1', 'VSS'];
  return Array.from({ length: n }, () => pick(rnd, wmis) + chars(rnd, VIN_ALPHABET, 6) + chars(rnd, VIN_ALPHABET, 2) + chars(rnd, '0123456789', 6));
}

export function trailerIds(n: number, seed = 7): string[] {
  const rnd = seeded(seed);
  return Array.from({ length: n }, () => {
    const kind = rnd();
    if (kind < 0.4) return chars(rnd, '123456789', 1) + chars(rnd, '0123456789', 3 + Math.floor(rnd() * 3));
    if (kind < 0.8) return chars(rnd, 'ABCDEFGHJKLMNPRSTUVWXYZ', 1 + Math.floor(rnd() * 2)) + chars(rnd, '0123456789', 3 + Math.floor(rnd() * 3));
    return chars(rnd, 'ABCDEFGHJKLMNPRSTUVWXYZ', 3) + chars(rnd, '0123456789', 4);
  });
}

const US_STATES = ['CF', 'FL', 'NY', 'TX', 'WA', 'MI', 'MN', 'WI', 'LA', 'NC', 'SC', 'OH', 'AZ', 'MA', 'ME', 'OR'];

/** US state numbers (33 CFR 174: state, 1-4 digits, 1-2 letters) and, for other countries,
 * Canadian pleasure craft licences (2 digits, a letter, 5 digits). */
export function boatNumbers(n: number, seed = 8): Array<{ value: string; country: 'US' | 'CA' }> {
  const rnd = seeded(seed);
  return Array.from({ length: n }, (_, i) => {
    if (i % 4 === 3) return { value: chars(rnd, '0123456789', 2) + chars(rnd, 'ABCDEFGHJKLMNPRSTUVWXYZ', 1) + chars(rnd, '0123456789', 5), country: 'CA' as const };
    const digits = chars(rnd, '123456789', 1) + chars(rnd, '0123456789', Math.floor(rnd() * 4));
    return { value: `${pick(rnd, US_STATES)} ${digits} ${chars(rnd, 'ABCDEFGHJKLMNPRSTUVWXYZ', 1 + Math.floor(rnd() * 2))}`, country: 'US' as const };
  });
}

export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const FONTS = ['DejaVu Sans', 'DejaVu Sans Mono', 'DejaVu Sans Condensed', 'DejaVu Serif'];

function text(x: number, y: number, size: number, value: string, o: { font?: string; bold?: boolean; fill?: string; anchor?: string; spacing?: number } = {}): string {
  return `<text x="${x.toFixed(0)}" y="${y.toFixed(0)}" font-family="${o.font ?? 'DejaVu Sans'}" font-weight="${o.bold ? 'bold' : 'normal'}" font-size="${size.toFixed(0)}" fill="${o.fill ?? '#111'}" text-anchor="${o.anchor ?? 'start'}" letter-spacing="${o.spacing ?? 0}">${esc(value)}</text>`;
}

/** Bars of random widths: a barcode's look, not a decodable one. */
function bars(rnd: () => number, x: number, y: number, w: number, h: number): string {
  let out = '';
  for (let cx = x; cx < x + w;) {
    const bw = 2 + Math.floor(rnd() * 5);
    if (rnd() < 0.55) out += `<rect x="${cx}" y="${y}" width="${bw}" height="${h}" fill="#111"/>`;
    cx += bw;
  }
  return out;
}

export const svg = (w: number, h: number, body: string) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`);

/** A door-jamb certification label: manufacturer lines, weights, the VIN, a barcode. */
function doorJamb(rnd: () => number, vin: string): Buffer {
  const W = 1280, H = 960;
  const lx = 220 + rnd() * 120, ly = 140 + rnd() * 80, lw = 760, lh = 620;
  const font = pick(rnd, FONTS.slice(0, 3));
  const size = 30 + rnd() * 10;
  const body = [
    `<rect width="${W}" height="${H}" fill="${pick(rnd, ['#6b6f75', '#8a1d1d', '#1d3a5c', '#2b2b2b', '#c9c9c9'])}"/>`,
    `<rect x="${lx}" y="${ly}" width="${lw}" height="${lh}" rx="14" fill="${pick(rnd, ['#f4f4f0', '#e8e6df', '#d7d9dc'])}"/>`,
    text(lx + 30, ly + 60, 26, 'MFD BY: ' + pick(rnd, ['GENERAL MOTORS', 'HONDA MFG', 'TOYOTA MTR', 'FORD MOTOR CO']), { font }),
    text(lx + 30, ly + 100, 24, `DATE: ${String(1 + Math.floor(rnd() * 12)).padStart(2, '0')}/${String(10 + Math.floor(rnd() * 15))}   GVWR: ${2000 + Math.floor(rnd() * 900)} KG`, { font }),
    text(lx + 30, ly + 140, 22, 'GAWR FRT: 1130 KG   RR: 1090 KG', { font }),
    text(lx + 30, ly + 250, 22, 'THIS VEHICLE CONFORMS TO ALL APPLICABLE FEDERAL', { font }),
    text(lx + 30, ly + 280, 22, 'MOTOR VEHICLE SAFETY STANDARDS IN EFFECT ON THE DATE', { font }),
    text(lx + 30, ly + 370, size, (rnd() < 0.5 ? 'VIN ' : '') + vin, { font, bold: rnd() < 0.5 }),
    bars(rnd, lx + 40, ly + 400, 620, 90),
    text(lx + 30, ly + 560, 22, 'TYPE: PASS CAR   PAINT: ' + chars(rnd, 'ABCDEFGHJKLMNPRSTUVWXYZ', 3), { font }),
  ].join('');
  return svg(W, H, body);
}

/** A VIN plate seen through the windshield: light characters on a dark strip, glass tint. */
function windshield(rnd: () => number, vin: string): Buffer {
  const W = 1280, H = 720;
  const x = 180 + rnd() * 160, y = 300 + rnd() * 120;
  const size = 40 + rnd() * 12;
  const body = [
    `<rect width="${W}" height="${H}" fill="#2c3238"/>`,
    `<rect x="0" y="${y - 120}" width="${W}" height="60" fill="#1b1e21"/>`,
    `<rect x="${x - 20}" y="${y - size - 18}" width="${size * 0.62 * 17 + 40}" height="${size + 40}" fill="#3b3f44"/>`,
    text(x, y, size, vin, { font: 'DejaVu Sans Mono', fill: pick(rnd, ['#e9e9e9', '#d8d3c4', '#cfd6dd']), spacing: 2 }),
    `<rect width="${W}" height="${H}" fill="#5d7a8c" opacity="0.18"/>`,
  ].join('');
  return svg(W, H, body);
}

/** A trailer's rear or side: the fleet number large, the company name nearby; half painted
 * top to bottom, one character under the other. */
function trailer(rnd: () => number, id: string, vertical: boolean): Buffer {
  const W = vertical ? 720 : 1280, H = vertical ? 1280 : 720;
  const bg = pick(rnd, ['#f2f2f2', '#d8dde3', '#b22222', '#1f4e79', '#e6e1d3']);
  const ink = bg === '#b22222' || bg === '#1f4e79' ? '#fafafa' : '#151515';
  const company = pick(rnd, ['ACME LOGISTICS', 'NORTHERN FREIGHT', 'BLUE LINE', 'ROADSTAR']);
  const parts = [`<rect width="${W}" height="${H}" fill="${bg}"/>`, `<rect x="0" y="${H - 60}" width="${W}" height="60" fill="#333"/>`];
  if (vertical) {
    const size = Math.min(110, Math.floor((H - 200) / id.length / 1.15));
    const x = 200 + rnd() * 200;
    id.split('').forEach((c, i) => parts.push(text(x, 110 + (i + 1) * size * 1.15, size, c, { bold: true, fill: ink, anchor: 'middle' })));
    parts.push(text(W - 40, 80, 30, company, { fill: ink, anchor: 'end' }));
  } else {
    const size = 100 + rnd() * 40;
    parts.push(text(W / 2 + (rnd() - 0.5) * 200, 320 + rnd() * 100, size, id, { bold: true, fill: ink, anchor: 'middle', font: pick(rnd, ['DejaVu Sans', 'DejaVu Sans Condensed']) }));
    parts.push(text(W / 2, 140, 44, company, { fill: ink, anchor: 'middle' }));
  }
  return svg(W, H, parts.join(''));
}

/** A hull side with its registration number and a waterline stripe. */
function hull(rnd: () => number, value: string): Buffer {
  const W = 1280, H = 720;
  const hullColour = pick(rnd, ['#f5f5f5', '#e9eef2', '#16324f', '#b8c4cc']);
  const ink = hullColour === '#16324f' ? '#f4f4f4' : '#101820';
  const body = [
    `<rect width="${W}" height="${H}" fill="#7fa7c4"/>`,
    `<path d="M0 160 L1280 120 L1180 600 L80 620 Z" fill="${hullColour}"/>`,
    `<rect x="60" y="520" width="1160" height="26" fill="${pick(rnd, ['#b22222', '#1f4e79', '#2e7d32'])}"/>`,
    text(640 + (rnd() - 0.5) * 160, 360 + rnd() * 80, 90 + rnd() * 30, value, { bold: true, fill: ink, anchor: 'middle', spacing: 4 }),
  ].join('');
  return svg(W, H, body);
}

export interface Nuisance { perspective: number; blur: number; contrast: number; noise: number; quality: number }

/** Picture-taking nuisances, seeded: a sharp affine (turn and shear standing in for a small
 * perspective), blur, low contrast, sensor noise and JPEG compression. */
export function nuisance(rnd: () => number, strength = 1): Nuisance {
  return {
    perspective: (rnd() - 0.5) * 0.16 * strength,
    blur: rnd() < 0.4 ? 0.6 + rnd() * 1.2 * strength : 0,
    contrast: rnd() < 0.3 ? 0.45 + rnd() * 0.2 : 1,
    noise: rnd() < 0.5 ? 4 + rnd() * 10 * strength : 0,
    quality: Math.round(55 + rnd() * 35),
  };
}

export async function degrade(svgBytes: Buffer, n: Nuisance, rnd: () => number): Promise<Buffer> {
  let img = sharp(svgBytes).flatten({ background: '#808080' });
  if (n.perspective !== 0) {
    const turn = n.perspective;
    const shear = n.perspective * 0.8;
    img = sharp(await img.affine([[Math.cos(turn), -Math.sin(turn) + shear], [Math.sin(turn), Math.cos(turn)]], { background: '#6a6a6a', interpolator: 'bilinear' }).png().toBuffer());
  }
  if (n.blur > 0.3) img = img.blur(n.blur);
  if (n.contrast < 1) img = img.linear(n.contrast, 128 * (1 - n.contrast));
  const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (n.noise > 0) {
    for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, data[i]! + (rnd() + rnd() + rnd() - 1.5) * n.noise));
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).jpeg({ quality: n.quality }).toBuffer();
}

export interface SyntheticSets { vinsNa: SyntheticCase[]; vinsIso: SyntheticCase[]; trailersH: SyntheticCase[]; trailersV: SyntheticCase[]; boats: SyntheticCase[] }

export async function syntheticSets(o: { vins: number; isoVins: number; trailers: number; boats: number }): Promise<SyntheticSets> {
  const rnd = seeded(2026);
  const render = (value: string, expect: string, make: Buffer, name: string) => degrade(make, nuisance(rnd), rnd).then((bytes) => ({ name: `${name} ${value}`, bytes, expect: [expect] }));
  const vinCase = (v: string, i: number) => (i % 2 === 0 ? render(v, v, doorJamb(rnd, v), 'door-jamb') : render(v, v, windshield(rnd, v), 'windshield'));
  const ids = trailerIds(o.trailers);
  const boats = boatNumbers(o.boats);
  const seq = async <T, R>(xs: T[], f: (x: T, i: number) => Promise<R>) => {
    const out: R[] = [];
    for (let i = 0; i < xs.length; i++) out.push(await f(xs[i]!, i)); // in order: the seeded stream stays reproducible
    return out;
  };
  return {
    vinsNa: await seq(northAmericanVins(o.vins), vinCase),
    vinsIso: await seq(iso3779Vins(o.isoVins), vinCase),
    trailersH: await seq(ids.filter((_, i) => i % 2 === 0), (v) => render(v, v, trailer(rnd, v, false), 'trailer')),
    trailersV: await seq(ids.filter((_, i) => i % 2 === 1), (v) => render(v, v, trailer(rnd, v, true), 'trailer vertical')),
    boats: await seq(boats, (b) => render(b.value, b.value, hull(rnd, b.value), `boat ${b.country}`)),
  };
}
