/**
 * The vehicle teacher: the COCO vehicle detector Vigil already runs (src/vision/vehicles) on
 * every photo named on standard input, one path per line; one JSON line out per photo:
 * {"file", "width", "height", "vehicles": [[xmin, ymin, xmax, ymax, score, cocoClass], ...]}.
 * Called by `python3 -m vigil_train.teacher_vehicles`, which keeps the labels.
 *
 *   npx tsx training/vehicle-teacher.ts < paths.txt
 */
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { decodeImage } from '../src/vision/image/decode.js';
import { createVehicleDetector } from '../src/vision/vehicles/vehicle-detector.js';

/** Low on purpose: the trainer decides which boxes teach a vehicle and which are only unsure. */
const TEACHER_FLOOR = 0.2;

const detector = await createVehicleDetector();
for await (const line of createInterface({ input: process.stdin })) {
  const file = line.trim();
  if (!file) continue;
  const image = await decodeImage(await readFile(file));
  const found = await detector.detect(image, { minScore: TEACHER_FLOOR });
  const vehicles = found.map((v) => [v.box.xmin, v.box.ymin, v.box.xmax, v.box.ymax, v.score, v.cocoClass]);
  process.stdout.write(JSON.stringify({ file, width: image.width, height: image.height, vehicles }) + '\n');
}
