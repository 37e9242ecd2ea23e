import { describe, expect, it } from 'vitest';
import { iou } from '../../../test/helpers/boxes.js';
import { noTextSceneJpeg, plateSceneJpeg } from '../../../test/fixtures/plate-images.js';
import { textImage, verticalTextImage } from '../../../test/fixtures/text-images.js';
import type { PlateReadOptions } from '../plates/plate.types.js';
import { defaultVisionSettings } from '../settings.js';
import { RecognitionWorkers } from './recognition.pool.js';
import { readIdentifiers, readPlates as readOnThisThread } from './recognition.worker.js';

const options = (over: Partial<PlateReadOptions> = {}): PlateReadOptions => ({
  regions: [], strictRegion: false, textFormats: [], mode: 'normal', thresholdD: 0.2, thresholdO: 0.6,
  strictDetection: false, mmc: false, ...over,
});


/** A plate reading on the calling thread, as the worker thread reads it. */
const readPlates = (task: { image: Uint8Array; options: PlateReadOptions }) => readOnThisThread(task.image, task.options);

describe('recognition worker: plates (real PP-OCR models, synthesized scenes)', () => {
  it('finds and reads a plate on a car in a 1280x720 scene', async () => {
    const scene = await plateSceneJpeg({ text: 'ABC1234', caption: 'SUNSHINE STATE' });
    const res = await readPlates({ image: scene.jpeg, options: options() });
    expect(res.plates[0]?.plate).toBe('abc1234');
    const top = res.plates[0]!;
    // The box hugs the plate number, inside the plate.
    expect(top.box.xmin).toBeGreaterThanOrEqual(scene.box.xmin - 10);
    expect(top.box.xmax).toBeLessThanOrEqual(scene.box.xmax + 10);
    expect(top.box.ymin).toBeGreaterThanOrEqual(scene.box.ymin - 10);
    expect(top.box.ymax).toBeLessThanOrEqual(scene.box.ymax + 10);
    expect(iou(top.box, scene.box)).toBeGreaterThan(0.25);
    expect(top.score).toBeGreaterThan(0.6);
    expect(top.dscore).toBeGreaterThan(0.2);
    expect(top.candidates[0]).toEqual({ plate: 'abc1234', score: top.score });
    // The plate detector's vehicle head boxes the drawn car around it, without mmc.
    const v = top.vehicle!.box;
    const [cx, cy] = [(scene.box.xmin + scene.box.xmax) / 2, (scene.box.ymin + scene.box.ymax) / 2];
    expect(cx > v.xmin && cx < v.xmax && cy > v.ymin && cy < v.ymax).toBe(true);
    // The slogan under the number is not a plate.
    expect(res.plates.map((p) => p.plate)).not.toContain('sunshinestate');
  });

  it('reads a small, tilted, sheared plate in a 1080p scene in every mode', async () => {
    const scene = await plateSceneJpeg({ text: 'OKP7250', width: 1920, height: 1080, plateWidth: 110, rotate: 5, shear: 0.12 });
    for (const mode of ['normal', 'fast', 'redaction'] as const) {
      const res = await readPlates({ image: scene.jpeg, options: options({ mode, regions: ['br'] }) });
      expect(res.plates.map((p) => p.plate), mode).toContain('okp7250');
      const hit = res.plates.find((p) => p.plate === 'okp7250')!;
      expect(hit.region.code).toBe('br');
      expect(iou(hit.box, scene.box)).toBeGreaterThan(0.2);
    }
  });

  it('reads a plate photographed 20 degrees askew: its close-up is cut along the plate', async () => {
    const scene = await plateSceneJpeg({ text: 'KXT4071', width: 1920, height: 1080, plateWidth: 110, rotate: 20 });
    const res = await readPlates({ image: scene.jpeg, options: options() });
    expect(res.plates.map((p) => p.plate)).toContain('kxt4071');
  });

  it('reads plates 20 degrees askew either way in fast mode, which has only the plate detector', async () => {
    // The detector trained on turned frames boxes them whole; the one before cut a first
    // character off both (xt4071, m2025).
    for (const [text, rotate] of [['KXT4071', -20], ['BRM2025', 20]] as const) {
      const scene = await plateSceneJpeg({ text, width: 1920, height: 1080, plateWidth: 110, rotate });
      const res = await readPlates({ image: scene.jpeg, options: options({ mode: 'fast' }) });
      expect(res.plates.map((p) => p.plate), `${text} at ${rotate} degrees`).toContain(text.toLowerCase());
    }
  });

  it('resolves an O printed where the Brazilian format wants a digit', async () => {
    const scene = await plateSceneJpeg({ text: 'ABCO234' });
    const res = await readPlates({ image: scene.jpeg, options: options({ regions: ['br'] }) });
    expect(res.plates[0]?.plate).toBe('abc0234');
    expect(res.plates[0]?.region.code).toBe('br');
  });

  it('drops readings that match no template of the regions with strictRegion', async () => {
    // Six characters: no Brazilian format, whatever the look-alike swaps.
    const scene = await plateSceneJpeg({ text: 'AB1234' });
    const loose = await readPlates({ image: scene.jpeg, options: options({ regions: ['br'] }) });
    expect(loose.plates[0]?.plate).toBe('ab1234');
    const strict = await readPlates({ image: scene.jpeg, options: options({ regions: ['br'], strictRegion: true }) });
    expect(strict.plates).toEqual([]);
  });

  it('text formats guide the reading', async () => {
    const scene = await plateSceneJpeg({ text: 'ABCO234' });
    const res = await readPlates({ image: scene.jpeg, options: options({ textFormats: ['^[a-z]{3}[0-9]{4}$'] }) });
    expect(res.plates[0]?.plate).toBe('abc0234');
  });

  it('answers colour and orientation with mmc (Unknown: no vehicle detected and no red lamp beside the plate)', async () => {
    const scene = await plateSceneJpeg({ text: 'ABC1234' });
    const res = await readPlates({ image: scene.jpeg, options: options({ mmc: true }) });
    expect(res.plates[0]).toMatchObject({
      plate: 'abc1234',
      color: [{ color: 'unknown', score: 0 }],
      orientation: [{ orientation: 'Unknown', score: 0 }],
    });
  });

  it('finds no plate in a scene without text', async () => {
    const res = await readPlates({ image: await noTextSceneJpeg(), options: options() });
    expect(res).toEqual({ plates: [], vehiclesWithoutPlate: [] });
  });

  it('reads plates and text on one worker thread behind RecognitionWorkers', async () => {
    const workers = new RecognitionWorkers(1);
    try {
      const scene = await plateSceneJpeg({ text: 'KLM4821' });
      const vinPlate = await textImage([{ text: 'VIN 1M8GDM9AXKP042788', x: 80, y: 300, size: 56 }]);
      const [plates, vins] = await Promise.all([workers.plates.read(scene.jpeg, options()), workers.text.read('vin', vinPlate)]);
      expect(plates.plates[0]?.plate).toBe('klm4821');
      expect(vins.map((v) => v.value)).toEqual(['1M8GDM9AXKP042788']);
    } finally {
      await workers.close();
    }
  });

  it('reads a stacked trailer number with the stack reader it loads beside the engine', async () => {
    const [r] = await readIdentifiers('trailer_id', await verticalTextImage('PKE6917'));
    expect(r).toMatchObject({ value: 'PKE6917', orientation: 'vertical' });
  });

  it('reads with PP-OCR alone as before (PLATE_DETECTOR=text, PLATE_READER=ppocr) in both modes', async () => {
    const workers = new RecognitionWorkers(1, { ...defaultVisionSettings(), inferenceThreads: 1, plateDetector: 'text', plateReader: 'ppocr' });
    const reader = workers.plates;
    try {
      const scene = await plateSceneJpeg({ text: 'KXT4071', width: 1920, height: 1080, plateWidth: 200 });
      for (const mode of ['normal', 'fast'] as const) {
        const res = await reader.read(scene.jpeg, options({ mode }));
        expect(res.plates.map((p) => p.plate), mode).toEqual(['kxt4071']);
        expect(iou(res.plates[0]!.box, scene.box), mode).toBeGreaterThan(0.3);
      }
      const empty = await reader.read(await noTextSceneJpeg(), options({ mode: 'fast' }));
      expect(empty.plates).toEqual([]);
    } finally {
      await workers.close();
    }
  });
});
