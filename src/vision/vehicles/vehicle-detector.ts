import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type { RawImage } from '../image/decode.js';
import { loadFileGraphModel, tf } from '../runtime/tfjs-backend.js';
import { boxIou, CENTERNET_INPUT, decodeCenternet, type ObjectDetection } from './centernet-decode.js';
import { COCO_VEHICLE_CLASSES, vehicleTypeFor, type Box, type VehicleType } from './vehicle-types.js';

export interface VehicleDetection {
  type: VehicleType;
  cocoClass: string;
  score: number;
  box: Box;
}

export interface VehicleDetector {
  detect(image: RawImage, opts?: { minScore?: number }): Promise<VehicleDetection[]>;
  /** Every COCO class, for diagnostics and tests (the test photo that ships in node_modules
   * shows people, not cars). */
  detectObjects(image: RawImage, opts?: { minScore?: number }): Promise<ObjectDetection[]>;
}

const require = createRequire(import.meta.url);
const SAME_VEHICLE_IOU = 0.6;
let model: Promise<GraphModel> | null = null;

/** The package exports no models/ path, so find it from the package entry (resolving does not
 * load human itself). */
export function centernetPath(): string {
  return join(dirname(require.resolve('@vladmandic/human')), '..', 'models', 'centernet.json');
}

/** The model is loaded lazily, once per thread (each worker thread has its own tfjs). */
function centernet(): Promise<GraphModel> {
  model ??= loadFileGraphModel(centernetPath()).catch((err: unknown) => {
    model = null; // let a later call retry instead of caching the failure
    throw err;
  });
  return model;
}

export function imageToInput(image: RawImage): tf.Tensor4D {
  return tf.tidy(() => {
    const pixels = tf.tensor3d(new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.length), [image.height, image.width, image.channels], 'int32');
    const rgb = image.channels === 1 ? tf.tile(pixels, [1, 1, 3]) : pixels;
    const batch = tf.expandDims(tf.cast(rgb, 'float32'), 0) as tf.Tensor4D;
    return tf.image.resizeBilinear(batch, [CENTERNET_INPUT, CENTERNET_INPUT]);
  });
}

export async function createVehicleDetector(): Promise<VehicleDetector> {
  const graph = await centernet();
  const detectObjects = async (image: RawImage, opts: { minScore?: number } = {}): Promise<ObjectDetection[]> => {
    const input = imageToInput(image);
    const out = graph.execute(input, ['tower_0/detections']) as tf.Tensor;
    try {
      const rows = await out.data();
      return decodeCenternet(rows as Float32Array, image.width, image.height, { minScore: opts.minScore ?? 0.2 });
    } finally {
      tf.dispose([input, out]);
    }
  };
  return {
    detectObjects,
    async detect(image, opts = {}) {
      const objects = await detectObjects(image, opts);
      // The head often labels one vehicle twice (car and truck, car and bus) on the same box:
      // keep the more confident label only. Objects come sorted by score.
      const kept: ObjectDetection[] = [];
      for (const o of objects) {
        if (COCO_VEHICLE_CLASSES[o.classId] === undefined) continue;
        if (kept.some((k) => boxIou(k.box, o.box) > SAME_VEHICLE_IOU)) continue;
        kept.push(o);
      }
      return kept
        .map((o) => ({
          type: vehicleTypeFor(o.cocoClass, o.box, image.width, image.height),
          cocoClass: o.cocoClass,
          score: Math.round(o.score * 1000) / 1000,
          box: o.box,
        }));
    },
  };
}
