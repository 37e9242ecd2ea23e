import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { iou } from '../../../test/helpers/boxes.js';
import { noTextSceneJpeg, plateImage, plateSceneJpeg } from '../../../test/fixtures/plate-images.js';
import { decodeImage } from '../image/decode.js';
import { blankImage } from '../../../test/fixtures/vehicle-images.js';
import { createOnnxSession, VIGIL_MODEL_FILES } from '../runtime/onnx-session.js';
import { CLOSE_UP_ZOOM, createPlateDetector } from './plate-detector-model.js';


describe('trained plate detector (models/plate-detector.onnx)', () => {
  it('boxes the plate on a car in generated scenes of several sizes, and nothing in a scene without one', async () => {
    const detector = await createPlateDetector({ intraOpNumThreads: 1 });
    for (const [width, height, plateWidth] of [[1280, 720, 160], [1920, 1080, 200], [1280, 720, 110]] as const) {
      const scene = await plateSceneJpeg({ text: 'KXT4071', width, height, plateWidth });
      const found = (await detector.detect(await decodeImage(scene.jpeg))).plates;
      expect(found.length, `${width}x${height}`).toBeGreaterThan(0);
      expect(iou(found[0]!.box, scene.box), `${width}x${height}`).toBeGreaterThan(0.3);
    }
    const empty = await detector.detect(await decodeImage(await noTextSceneJpeg()), { minScore: 0.5 });
    expect(empty.plates).toEqual([]);
  });

  it('has a vehicle head beside the plate maps, and boxes no vehicle in a blank photo', async () => {
    const session = await createOnnxSession(VIGIL_MODEL_FILES.plateDetector, { intraOpNumThreads: 1 });
    expect(session.outputNames).toEqual(['maps', 'vehicles']);
    // Vehicle accuracy needs photos of vehicles, which no installed package ships: it is
    // measured by bench/plates-vehicles.ts on the datasets.
    const detector = await createPlateDetector({ intraOpNumThreads: 1 });
    expect((await detector.detect(blankImage(1280, 720))).vehicles).toEqual([]);
  });

  it('boxes a plate that fills the photo once the photo is shrunk to CLOSE_UP_ZOOM of its input', async () => {
    const detector = await createPlateDetector({ intraOpNumThreads: 1 });
    const closeUp = await decodeImage(await sharp(await plateImage('KXT4071', 1200)).flatten({ background: '#808080' }).jpeg({ quality: 90 }).toBuffer());
    expect((await detector.detect(closeUp)).plates).toEqual([]);
    const found = (await detector.detect(closeUp, { zoom: CLOSE_UP_ZOOM })).plates;
    expect(found.length).toBeGreaterThan(0);
    // Its number: most of the photo's width, about the middle of its height.
    const b = found[0]!.box;
    expect(b.xmax - b.xmin).toBeGreaterThan(0.6 * closeUp.width);
    expect(Math.abs((b.ymin + b.ymax) / 2 - 0.55 * closeUp.height)).toBeLessThan(0.1 * closeUp.height);
  });
});
