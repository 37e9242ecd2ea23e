import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyScores } from '../../domain/camera-health.js';
import { sceneJpeg } from '../../../test/fixtures/images.js';
import { analyzeAgainstReference, analyzeWithPrepared, NotComparableError, prepareReference } from './index.js';

/** Perturbations of a structured scene, each of which a camera operator must hear about, and
 * everyday changes they must not. */
describe('camera health analysis', () => {
  let scene: Buffer;
  const W = 640;
  const H = 480;
  beforeAll(async () => {
    scene = await sceneJpeg(W, H, 21);
  });

  const scores = async (image: Buffer) => (await analyzeAgainstReference(scene, image)).scores;
  const statusOf = async (image: Buffer) => classifyScores(await scores(image));

  it('scores an untouched re-encoded copy as normal on all four', async () => {
    const copy = await sharp(scene).jpeg({ quality: 60 }).toBuffer();
    const s = await scores(copy);
    for (const v of Object.values(s)) expect(v).toBeLessThan(0.2);
    expect((await statusOf(copy)).status).toBe('normal');
  });

  it('flags a defocused view as Blur', async () => {
    const blurred = await sharp(scene).blur(6).jpeg().toBuffer();
    const { status, anomalies } = await statusOf(blurred);
    expect(status).toBe('anomaly');
    expect(Object.keys(anomalies)).toEqual(['Blur']);
  });

  it('flags a shifted view as Position change', async () => {
    const shifted = await sharp(scene).extract({ left: 48, top: 24, width: W - 48, height: H - 24 }).extend({ right: 48, bottom: 24, extendWith: 'mirror' }).jpeg().toBuffer();
    const { anomalies } = await statusOf(shifted);
    expect(Object.keys(anomalies)).toEqual(['Position change']);
  });

  it('flags a view half covered by a dark object as Obstruction', async () => {
    const cover = await sharp({ create: { width: W / 2, height: H, channels: 3, background: '#141414' } }).png().toBuffer();
    const covered = await sharp(scene).composite([{ input: cover, left: 0, top: 0 }]).jpeg().toBuffer();
    const { anomalies } = await statusOf(covered);
    expect(Object.keys(anomalies)).toEqual(['Obstruction']);
  });

  it('flags a blown-out view as Glare', async () => {
    const glare = await sharp(scene).linear(2.5, 60).jpeg().toBuffer();
    const { anomalies } = await statusOf(glare);
    expect(anomalies).toHaveProperty('Glare');
  });

  it('stays normal for a darker evening view and a small passing vehicle', async () => {
    const evening = await sharp(scene).linear(0.6, 0).jpeg().toBuffer();
    expect((await statusOf(evening)).status).toBe('normal');
    const car = await sharp({ create: { width: 90, height: 50, channels: 3, background: '#b03030' } }).png().toBuffer();
    const passing = await sharp(scene).composite([{ input: car, left: 300, top: 300 }]).jpeg().toBuffer();
    expect((await statusOf(passing)).status).toBe('normal');
  });

  it('refuses an image of another shape or too small to compare', async () => {
    const square = await sceneJpeg(400, 400, 21);
    await expect(analyzeAgainstReference(scene, square)).rejects.toBeInstanceOf(NotComparableError);
    const tiny = await sceneJpeg(40, 30, 21);
    await expect(analyzeAgainstReference(scene, tiny)).rejects.toBeInstanceOf(NotComparableError);
  });

  it('gives the same scores from a prepared reference', async () => {
    const blurred = await sharp(scene).blur(6).jpeg().toBuffer();
    const prepared = await prepareReference(scene);
    expect((await analyzeWithPrepared(prepared, blurred)).scores).toEqual(await scores(blurred));
  });
});
