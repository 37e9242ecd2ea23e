import { COCO_LABELS } from './coco-labels.js';

/** The CenterNet graph (MB3-CenterNet as shipped by @vladmandic/human) takes a 512x512 RGB
 * image with 0..255 float values (it normalises inside the graph) and returns
 * `tower_0/detections` [1, 100, 6]: x1, y1, x2, y2 in input pixels, score, 0-based COCO class.
 * Human resizes the whole frame to 512x512 without keeping the aspect ratio; we do the same. */
export const CENTERNET_INPUT = 512;

export interface ObjectDetection {
  classId: number;
  cocoClass: string;
  score: number;
  /** Pixels of the original image. */
  box: { xmin: number; ymin: number; xmax: number; ymax: number };
}

/** Turns raw detection rows into boxes of the original image, filtered by score, with a
 * per-class greedy NMS (human uses IoU 0.4 over all classes; per class keeps a car and the
 * truck label of the same vehicle apart until the caller decides). */
export function decodeCenternet(
  rows: ArrayLike<number>,
  imageWidth: number,
  imageHeight: number,
  opts: { minScore?: number; iou?: number; inputSize?: number } = {},
): ObjectDetection[] {
  const minScore = opts.minScore ?? 0.2;
  const iou = opts.iou ?? 0.4;
  const size = opts.inputSize ?? CENTERNET_INPUT;
  const sx = imageWidth / size;
  const sy = imageHeight / size;
  const found: ObjectDetection[] = [];
  for (let i = 0; i + 5 < rows.length; i += 6) {
    const score = rows[i + 4]!;
    const classId = Math.round(rows[i + 5]!);
    if (!(score >= minScore) || !Number.isFinite(classId)) continue;
    const clamp = (v: number, max: number) => Math.min(max, Math.max(0, v));
    const box = {
      xmin: Math.round(clamp(rows[i]! * sx, imageWidth)),
      ymin: Math.round(clamp(rows[i + 1]! * sy, imageHeight)),
      xmax: Math.round(clamp(rows[i + 2]! * sx, imageWidth)),
      ymax: Math.round(clamp(rows[i + 3]! * sy, imageHeight)),
    };
    if (box.xmax <= box.xmin || box.ymax <= box.ymin) continue;
    found.push({ classId, cocoClass: COCO_LABELS[classId] ?? 'unknown', score, box });
  }
  found.sort((a, b) => b.score - a.score);
  const kept: ObjectDetection[] = [];
  for (const d of found) {
    if (kept.some((k) => k.classId === d.classId && boxIou(k.box, d.box) > iou)) continue;
    kept.push(d);
  }
  return kept;
}

export function boxIou(a: ObjectDetection['box'], b: ObjectDetection['box']): number {
  const iw = Math.max(0, Math.min(a.xmax, b.xmax) - Math.max(a.xmin, b.xmin));
  const ih = Math.max(0, Math.min(a.ymax, b.ymax) - Math.max(a.ymin, b.ymin));
  const inter = iw * ih;
  const area = (x: ObjectDetection['box']) => (x.xmax - x.xmin) * (x.ymax - x.ymin);
  const union = area(a) + area(b) - inter;
  return union > 0 ? inter / union : 0;
}
