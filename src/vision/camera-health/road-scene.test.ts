import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyScores } from '../../domain/camera-health.js';
import { roadJpeg } from '../../../test/fixtures/images.js';
import { analyzeWithPrepared, prepareReference, type ImageFeatures } from './index.js';

/** A traffic camera's view is mostly plain asphalt: a cover there hides little structure, only
 * colour, and a strong defocus leaves no edge to line up. */
describe('camera health on a plain road scene', () => {
  const W = 640;
  const H = 360;
  let road: Buffer;
  let reference: ImageFeatures;
  beforeAll(async () => {
    road = await roadJpeg(W, H);
    reference = await prepareReference(road);
  });

  const statusOf = async (image: Buffer) => classifyScores((await analyzeWithPrepared(reference, image)).scores);
  const overlaid = async (svgBody: string, blur = 0) => {
    let layer = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${svgBody}</svg>`)).png().toBuffer();
    if (blur) layer = await sharp(layer).blur(blur).png().toBuffer();
    return sharp(road).composite([{ input: layer }]).jpeg({ quality: 85 }).toBuffer();
  };

  it('flags fingers over the asphalt, of its own brightness but not its colour, as Obstruction', async () => {
    // Three blurred skin-coloured fingers from the bottom edge: about a third of the view.
    const fingers = [0.36, 0.51, 0.66].map((x) => `<rect x="${W * x}" y="${H * 0.25}" width="${W * 0.14}" height="${H}" rx="${W * 0.07}" fill="#b98068"/>`).join('');
    const { anomalies } = await statusOf(await overlaid(fingers, 12));
    expect(Object.keys(anomalies)).toEqual(['Obstruction']);
  });

  it('flags a streak of light across the view as Glare', async () => {
    const streak = `<defs><linearGradient id="f" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#fff" stop-opacity="0"/><stop offset="0.35" stop-color="#fff"/><stop offset="0.65" stop-color="#fff"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient></defs><rect x="${W * 0.3}" y="${-H * 0.3}" width="${W * 0.3}" height="${H * 1.6}" fill="url(#f)" transform="rotate(25 ${W / 2} ${H / 2})"/>`;
    const { anomalies } = await statusOf(await overlaid(streak));
    expect(Object.keys(anomalies)).toEqual(['Glare']);
  });

  it('flags a strong defocus, which leaves no edge in place, as Blur', async () => {
    const { anomalies } = await statusOf(await sharp(road).blur(24).jpeg({ quality: 85 }).toBuffer());
    expect(Object.keys(anomalies)).toEqual(['Blur']);
  });

  it('stays normal at dusk with headlights on the road', async () => {
    const dusk = await sharp(road).modulate({ brightness: 0.6, saturation: 0.7 }).jpeg().toBuffer();
    const lights = [0.5, 0.56, 0.8, 0.86].map((x) => `<circle cx="${W * x}" cy="${H * 0.7}" r="${W * 0.012}" fill="#fffbe8"/>`).join('');
    const layer = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${lights}</svg>`)).blur(2).png().toBuffer();
    const { status } = await statusOf(await sharp(dusk).composite([{ input: layer }]).jpeg().toBuffer());
    expect(status).toBe('normal');
  });

  it('stays normal when the camera switches to infrared (the colour drains from the whole view)', async () => {
    const infrared = await sharp(road).grayscale().linear(0.9, 10).jpeg().toBuffer();
    expect((await statusOf(infrared)).status).toBe('normal');
  });
});
