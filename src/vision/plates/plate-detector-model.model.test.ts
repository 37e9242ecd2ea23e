import { describe, expect, it } from 'vitest';
import { iou } from '../../../test/helpers/boxes.js';
import { noTextSceneJpeg, plateSceneJpeg } from '../../../test/fixtures/plate-images.js';
import { decodeImage } from '../image/decode.js';
import { createPlateDetector } from './plate-detector-model.js';


describe('trained plate detector (models/plate-detector.onnx)', () => {
  it('boxes the plate on a car in generated scenes of several sizes, and nothing in a scene without one', async () => {
    const detector = await createPlateDetector({ intraOpNumThreads: 1 });
    for (const [width, height, plateWidth] of [[1280, 720, 160], [1920, 1080, 200], [1280, 720, 110]] as const) {
      const scene = await plateSceneJpeg({ text: 'KXT4071', width, height, plateWidth });
      const found = await detector.detect(await decodeImage(scene.jpeg));
      expect(found.length, `${width}x${height}`).toBeGreaterThan(0);
      expect(iou(found[0]!.box, scene.box), `${width}x${height}`).toBeGreaterThan(0.3);
    }
    const empty = await detector.detect(await decodeImage(await noTextSceneJpeg()), { minScore: 0.5 });
    expect(empty).toEqual([]);
  });
});
