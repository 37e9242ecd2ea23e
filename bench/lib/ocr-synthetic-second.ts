/**
 * A second, independent generator of synthetic identifiers for bench:ocr (issue 31's rule: tune
 * on one generator, quote the other). It takes from ocr-synthetic.ts only the identifier
 * strings' rules, the seeded random stream and the SVG plumbing; the rendering is its own: other
 * fonts (Debian's Liberation, Roboto, Nimbus, Noto, B612, League Spartan, Open Sans, Jura;
 * fontconfig falls back to DejaVu where one is missing), other surfaces (corrugated and riveted
 * trailer panels, dirty reefers, stamped metal VIN plates, hulls with reflections), other
 * placements (a corner, beside the doors, small and far), stencil, embossed and outlined
 * lettering, dirt, motion blur and night. Readers are tuned on the first generator; figures
 * quoted from this one are on renderings they never saw.
 */
import sharp from 'sharp';
import { boatNumbers, esc, iso3779Vins, northAmericanVins, pick, seeded, svg, type SyntheticCase, trailerIds } from './ocr-synthetic.js';

const between = (rnd: () => number, lo: number, hi: number) => lo + rnd() * (hi - lo);

const FONTS = ['Liberation Sans Narrow', 'Roboto Condensed', 'Nimbus Sans Narrow', 'Noto Sans', 'B612', 'League Spartan', 'Open Sans', 'Jura', 'Liberation Mono', 'Nimbus Mono PS'];

type Lettering = 'plain' | 'stencil' | 'embossed' | 'outline';

/** One line of lettering in a style; `bg` is the surface colour (stencil bridges and relief use it). */
function lettering(rnd: () => number, o: { x: number; y: number; size: number; value: string; ink: string; bg: string; style: Lettering; anchor?: string; font?: string }): string {
  const font = o.font ?? pick(rnd, FONTS);
  const spacing = between(rnd, 0, 0.12) * o.size;
  const base = `x="${o.x.toFixed(0)}" y="${o.y.toFixed(0)}" font-family="${font}" font-weight="bold" font-size="${o.size.toFixed(0)}" text-anchor="${o.anchor ?? 'middle'}" letter-spacing="${spacing.toFixed(1)}"`;
  const value = esc(o.value);
  switch (o.style) {
    case 'outline':
      return `<text ${base} fill="none" stroke="${o.ink}" stroke-width="${(o.size / 14).toFixed(1)}">${value}</text>`;
    case 'embossed': {
      // Raised letters in the surface's own colour: only their lit and shaded edges show.
      const d = Math.max(2, o.size / 30);
      return `<text ${base} fill="#ffffff" opacity="0.55" transform="translate(${-d} ${-d})">${value}</text>`
        + `<text ${base} fill="#000000" opacity="0.55" transform="translate(${d} ${d})">${value}</text>`
        + `<text ${base} fill="${o.bg}">${value}</text>`;
    }
    case 'stencil': {
      // Bridges: the surface shows through two thin bands across every glyph.
      const w = o.value.length * o.size;
      const x0 = (o.anchor ?? 'middle') === 'middle' ? o.x - w / 2 : o.x;
      const band = (t: number) => `<rect x="${x0.toFixed(0)}" y="${(o.y - o.size * t).toFixed(0)}" width="${w.toFixed(0)}" height="${(o.size * 0.06).toFixed(1)}" fill="${o.bg}"/>`;
      return `<text ${base} fill="${o.ink}">${value}</text>${band(0.62)}${band(0.3)}`;
    }
    default:
      return `<text ${base} fill="${o.ink}">${value}</text>`;
  }
}

/** Grime: brown smudges and streaks running down, denser at the bottom. */
function dirt(rnd: () => number, W: number, H: number, amount: number): string {
  const out: string[] = [];
  for (let i = 0; i < amount; i++) {
    const x = rnd() * W, y = H * Math.sqrt(rnd());
    out.push(`<ellipse cx="${x.toFixed(0)}" cy="${y.toFixed(0)}" rx="${between(rnd, 8, 90).toFixed(0)}" ry="${between(rnd, 4, 40).toFixed(0)}" fill="${pick(rnd, ['#5b4632', '#3e3a34', '#7a6448'])}" opacity="${between(rnd, 0.08, 0.35).toFixed(2)}"/>`);
  }
  for (let i = 0; i < amount / 3; i++) {
    const x = rnd() * W;
    out.push(`<rect x="${x.toFixed(0)}" y="${(rnd() * H * 0.5).toFixed(0)}" width="${between(rnd, 2, 7).toFixed(0)}" height="${between(rnd, 60, H).toFixed(0)}" fill="#6b4a2b" opacity="${between(rnd, 0.05, 0.2).toFixed(2)}"/>`);
  }
  return out.join('');
}

/** A trailer panel: corrugated (vertical ribs) or smooth with rivet rows, the fleet number in a
 * corner, beside the doors or across the panel, horizontal or stacked. */
function trailerPanel(rnd: () => number, id: string, vertical: boolean): Buffer {
  const W = 1280, H = 720;
  const bg = pick(rnd, ['#c9ced3', '#eeeeea', '#9aa3ab', '#7d1d1d', '#21405f', '#d6c9a3']);
  const dark = bg === '#7d1d1d' || bg === '#21405f' || bg === '#9aa3ab';
  const ink = dark ? pick(rnd, ['#f4f4f4', '#f2d14b']) : pick(rnd, ['#111111', '#1c2f6b', '#8b1010']);
  const parts = [`<rect width="${W}" height="${H}" fill="${bg}"/>`];
  if (rnd() < 0.5) {
    const pitch = between(rnd, 18, 40);
    for (let x = 0; x < W; x += pitch) parts.push(`<rect x="${x.toFixed(0)}" y="0" width="${(pitch / 3).toFixed(0)}" height="${H}" fill="#000" opacity="0.09"/>`);
  } else {
    for (const y of [between(rnd, 30, 80), between(rnd, H - 120, H - 60)]) {
      for (let x = 20; x < W; x += 36) parts.push(`<circle cx="${x}" cy="${y.toFixed(0)}" r="4" fill="#000" opacity="0.25"/>`);
    }
  }
  // Door seams and a hinge bar: vertical lines a reader must not take for a 1 or an I.
  const seam = between(rnd, W * 0.45, W * 0.7);
  parts.push(`<rect x="${seam.toFixed(0)}" y="0" width="6" height="${H}" fill="#222" opacity="0.5"/>`, `<rect x="${(seam + between(rnd, 60, 140)).toFixed(0)}" y="${between(rnd, 150, 400).toFixed(0)}" width="14" height="${between(rnd, 120, 250).toFixed(0)}" fill="#555"/>`);
  const style = pick<Lettering>(rnd, ['plain', 'plain', 'stencil', 'embossed', 'outline']);
  const font = pick(rnd, FONTS);
  if (vertical) {
    const size = Math.min(between(rnd, 60, 95), (H - 80) / id.length / 1.1);
    const x = pick(rnd, [between(rnd, 70, 160), seam - between(rnd, 50, 90), W - between(rnd, 60, 140)]);
    const top = between(rnd, 40, Math.max(41, H - id.length * size * 1.1 - 20));
    id.split('').forEach((c, i) => parts.push(lettering(rnd, { x, y: top + (i + 1) * size * 1.1, size, value: c, ink, bg, style, font })));
  } else {
    const size = between(rnd, 45, 120);
    const width = id.length * size * 0.65;
    const place = rnd();
    const x = place < 0.35 ? between(rnd, 30, 120) + width / 2 : place < 0.7 ? W - between(rnd, 30, 120) - width / 2 : between(rnd, width / 2 + 20, W - width / 2 - 20);
    const y = pick(rnd, [between(rnd, size + 20, 200), between(rnd, 250, 450), between(rnd, 500, H - 40)]);
    parts.push(lettering(rnd, { x, y, size, value: id, ink, bg, style, font }));
    if (rnd() < 0.6) parts.push(lettering(rnd, { x: W / 2, y: pick(rnd, [90, H - 90]), size: between(rnd, 30, 60), value: pick(rnd, ['PRIME INC', 'KOOLTRANS', 'GREAT PLAINS', 'CARRIER 53']), ink, bg, style: 'plain' }));
  }
  parts.push(dirt(rnd, W, H, Math.floor(between(rnd, 0, 30))));
  return svg(W, H, parts.join(''));
}

/** A stamped or riveted metal VIN plate (the first generator draws stickers and windshield
 * plates), on a dark body panel. */
function vinPlate(rnd: () => number, vin: string): Buffer {
  const W = 1280, H = 720;
  const metal = pick(rnd, ['#b9bcbf', '#d7d3c8', '#a89f8e', '#cfd5da']);
  const pw = between(rnd, 820, 1180), ph = between(rnd, 160, 300);
  const px = (W - pw) / 2 + between(rnd, -40, 40), py = (H - ph) / 2 + between(rnd, -60, 60);
  const size = Math.min(ph * 0.32, (pw - 60) / vin.length / 0.62);
  const style = pick<Lettering>(rnd, ['plain', 'embossed', 'embossed', 'stencil']);
  const parts = [
    `<rect width="${W}" height="${H}" fill="${pick(rnd, ['#2b2b2b', '#3b3f45', '#5a1f1f'])}"/>`,
    `<rect x="${px.toFixed(0)}" y="${py.toFixed(0)}" width="${pw.toFixed(0)}" height="${ph.toFixed(0)}" rx="10" fill="${metal}"/>`,
    ...[px + 18, px + pw - 18].map((x) => `<circle cx="${x.toFixed(0)}" cy="${(py + ph / 2).toFixed(0)}" r="9" fill="#777"/>`),
    lettering(rnd, { x: px + pw / 2, y: py + ph * 0.3, size: size * 0.45, value: pick(rnd, ['VEHICLE IDENTIFICATION NO.', 'V.I.N.', 'CHASSIS NO']), ink: '#333', bg: metal, style: 'plain' }),
    lettering(rnd, { x: px + pw / 2, y: py + ph * 0.75, size, value: vin, ink: '#1a1a1a', bg: metal, style, font: pick(rnd, ['Liberation Mono', 'Nimbus Mono PS', 'B612', 'Roboto Condensed', 'Liberation Sans Narrow']) }),
    dirt(rnd, W, H, Math.floor(between(rnd, 0, 12))),
  ];
  return svg(W, H, parts.join(''));
}

/** A hull near the bow, the number in another face and size, with water reflections over it. */
function bow(rnd: () => number, value: string): Buffer {
  const W = 1280, H = 720;
  const hullColour = pick(rnd, ['#fafafa', '#dfe6ea', '#0f2a44', '#8c1c13', '#2f4f2f']);
  const dark = hullColour !== '#fafafa' && hullColour !== '#dfe6ea';
  const ink = dark ? '#f5f5f5' : pick(rnd, ['#0b1a2a', '#1f3b73', '#6b0f0f']);
  const parts = [
    `<rect width="${W}" height="${H}" fill="${pick(rnd, ['#5f8fb0', '#3d6e8a', '#8aa7b8'])}"/>`,
    `<path d="M0 ${between(rnd, 80, 200).toFixed(0)} Q640 ${between(rnd, 40, 140).toFixed(0)} 1280 ${between(rnd, 200, 320).toFixed(0)} L1280 720 L0 720 Z" fill="${hullColour}"/>`,
    lettering(rnd, { x: between(rnd, 380, 900), y: between(rnd, 360, 520), size: between(rnd, 60, 120), value, ink, bg: hullColour, style: pick<Lettering>(rnd, ['plain', 'plain', 'outline']) }),
  ];
  for (let i = 0; i < 14; i++) parts.push(`<ellipse cx="${(rnd() * W).toFixed(0)}" cy="${between(rnd, 300, 700).toFixed(0)}" rx="${between(rnd, 40, 200).toFixed(0)}" ry="${between(rnd, 3, 10).toFixed(0)}" fill="#ffffff" opacity="${between(rnd, 0.1, 0.35).toFixed(2)}"/>`);
  return svg(W, H, parts.join(''));
}

/** The photograph: a rotation and a foreshortening (one side smaller: the camera off to one
 * side), distance (drawn small, enlarged again), motion blur, night or low sun, noise, JPEG. */
async function photograph(rnd: () => number, svgBytes: Buffer): Promise<Buffer> {
  let img = sharp(svgBytes).flatten({ background: '#777777' });
  const turn = between(rnd, -0.12, 0.12);
  const squeeze = between(rnd, 0.75, 1);
  img = sharp(await img.affine([[Math.cos(turn) * squeeze, -Math.sin(turn)], [Math.sin(turn), Math.cos(turn)]], { background: '#5a5a5a', interpolator: 'bicubic' }).png().toBuffer());
  const { width = 1280, height = 720 } = await img.metadata();
  if (rnd() < 0.4) {
    const f = between(rnd, 0.35, 0.7);
    img = sharp(await img.resize(Math.round(width * f), Math.round(height * f)).png().toBuffer()).resize(width, height, { kernel: 'cubic' });
  }
  if (rnd() < 0.35) {
    const k = 2 * Math.floor(between(rnd, 2, 6)) + 1;
    // sharp wants a kernel at least 3 high: a horizontal smear in the middle row only.
    img = sharp(await img.png().toBuffer()).convolve({ width: k, height: 3, kernel: Array.from({ length: 3 * k }, (_, i) => (i >= k && i < 2 * k ? 1 / k : 0)) });
  }
  const light = rnd();
  if (light < 0.25) img = img.linear(between(rnd, 0.25, 0.45), between(rnd, 0, 12)); // night
  else if (light < 0.4) img = img.linear(between(rnd, 1.1, 1.4), between(rnd, 10, 40)); // low sun, washed out
  const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const noise = light < 0.25 ? between(rnd, 6, 16) : between(rnd, 0, 8);
  for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, data[i]! + (rnd() + rnd() - 1) * noise));
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).jpeg({ quality: Math.round(between(rnd, 40, 88)) }).toBuffer();
}

export interface SecondSyntheticSets { vins: SyntheticCase[]; trailersH: SyntheticCase[]; trailersV: SyntheticCase[]; boats: SyntheticCase[] }

/** Other strings than the first generator's (other seeds), rendered the second way. `draw` (default
 * 0, the set quoted so far) picks other seeds: a fresh draw nobody has looked at. */
export async function secondSyntheticSets(o: { vins: number; trailers: number; boats: number; draw?: number }): Promise<SecondSyntheticSets> {
  const d = o.draw ?? 0;
  const rnd = seeded(3131 + 7919 * d);
  const out: SecondSyntheticSets = { vins: [], trailersH: [], trailersV: [], boats: [] };
  // In order: the seeded stream stays reproducible.
  const vins = [...northAmericanVins(Math.ceil(o.vins / 2), 105 + 10 * d), ...iso3779Vins(Math.floor(o.vins / 2), 106 + 10 * d)];
  for (const v of vins) out.vins.push({ name: `vin plate ${v}`, bytes: await photograph(rnd, vinPlate(rnd, v)), expect: [v] });
  for (const [i, id] of trailerIds(o.trailers, 107 + 10 * d).entries()) {
    const vertical = i % 2 === 1;
    (vertical ? out.trailersV : out.trailersH).push({ name: `trailer panel ${vertical ? 'stacked ' : ''}${id}`, bytes: await photograph(rnd, trailerPanel(rnd, id, vertical)), expect: [id] });
  }
  for (const b of boatNumbers(o.boats, 108 + 10 * d)) out.boats.push({ name: `bow ${b.country} ${b.value}`, bytes: await photograph(rnd, bow(rnd, b.value)), expect: [b.value] });
  return out;
}
