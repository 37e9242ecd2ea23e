import { describe, expect, it } from 'vitest';
import { PLATE_MARGINS, plateBox, REDACTION_MARGINS } from './plate-box.js';

const image = { width: 1280, height: 720 };
// A number's text 200 px wide and 40 px tall, as the detector boxes it.
const text = { xmin: 500, ymin: 400, xmax: 700, ymax: 440 };

describe('plateBox', () => {
  it('reaches further above the number than below it, where a plate carries its state name or city strip', () => {
    const box = plateBox(text, 40, image, PLATE_MARGINS);
    expect(text.ymin - box.ymin).toBeGreaterThan(box.ymax - text.ymax);
    expect(box.ymax).toBeGreaterThan(text.ymax);
  });

  it('is about as tall as a plate is for its number: well under twice the line height', () => {
    const box = plateBox(text, 40, image, PLATE_MARGINS);
    // A plate's number fills half (US) to two thirds (EU) of its height; the detector's text box
    // already has a margin of its own.
    expect((box.ymax - box.ymin) / 40).toBeGreaterThan(1.2);
    expect((box.ymax - box.ymin) / 40).toBeLessThan(1.6);
    expect((box.xmax - box.xmin) / 200).toBeGreaterThan(1);
    expect((box.xmax - box.xmin) / 200).toBeLessThan(1.15);
  });

  it('gives redaction a box that contains the reading box with room on every side', () => {
    const usual = plateBox(text, 40, image, PLATE_MARGINS);
    const redact = plateBox(text, 40, image, REDACTION_MARGINS);
    expect(redact.xmin).toBeLessThan(usual.xmin);
    expect(redact.ymin).toBeLessThan(usual.ymin);
    expect(redact.xmax).toBeGreaterThan(usual.xmax);
    expect(redact.ymax).toBeGreaterThan(usual.ymax);
  });

  it('gives a short number (a vanity plate) a redaction box as wide and tall as a whole plate', () => {
    const short = { xmin: 600, ymin: 400, xmax: 660, ymax: 440 };
    const box = plateBox(short, 40, image, REDACTION_MARGINS);
    expect(box.xmax - box.xmin).toBeGreaterThanOrEqual(4 * 40);
    expect(box.ymax - box.ymin).toBeGreaterThanOrEqual(2 * 40);
    // Centred on the number across, reaching further above it than below.
    expect(Math.abs((box.xmin + box.xmax) / 2 - 630)).toBeLessThanOrEqual(1);
    expect(short.ymin - box.ymin).toBeGreaterThan(box.ymax - short.ymax);
    const usual = plateBox(short, 40, image, PLATE_MARGINS);
    expect(usual.xmax - usual.xmin).toBeLessThan(80);
  });

  it('stays inside the image and in whole pixels', () => {
    const corner = { xmin: 2.4, ymin: 3.6, xmax: 1279.2, ymax: 719.5 };
    const box = plateBox(corner, 30, image, REDACTION_MARGINS);
    expect(box).toEqual({ xmin: 0, ymin: 0, xmax: 1280, ymax: 720 });
    const inner = plateBox({ xmin: 100.4, ymin: 200.6, xmax: 300.2, ymax: 230.6 }, 30, image, PLATE_MARGINS);
    for (const v of Object.values(inner)) expect(Number.isInteger(v)).toBe(true);
  });
});
