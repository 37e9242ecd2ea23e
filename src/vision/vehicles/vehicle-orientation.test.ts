import { describe, expect, it } from 'vitest';
import { carWithLamps, LAMP_CAR } from '../../../test/fixtures/vehicle-images.js';
import { cropRect, toGray } from '../image/warp.js';
import { isLampRed, lampEvidence, orientationFromLamps, vehicleOrientation } from './vehicle-orientation.js';

const TAIL_RED: [number, number, number] = [200, 25, 30];
const HEADLAMP: [number, number, number] = [245, 245, 238];
/** A blue car: a colour photo has colour in it (a grey one tells nothing, see the last test). */
const BLUE: [number, number, number] = [40, 70, 170];

describe('isLampRed', () => {
  it.each([
    [[200, 25, 30], true], // a tail lamp by day
    [[255, 90, 85], true], // a lit one, glowing
    [[255, 140, 0], false], // an amber indicator
    [[230, 120, 200], false], // pink
    [[60, 10, 10], false], // too dark to tell from a shadow on maroon paint
    [[150, 140, 140], false], // silver
  ] as const)('%j -> %s', (rgb, red) => {
    expect(isLampRed(rgb[0], rgb[1], rgb[2])).toBe(red);
  });
});

describe('vehicleOrientation', () => {
  it('calls a car showing red lamps on both sides of its plate a rear', () => {
    const [top, other] = vehicleOrientation(carWithLamps({ lamps: TAIL_RED }), LAMP_CAR.plate, LAMP_CAR.body);
    expect(top).toEqual({ orientation: 'Rear', score: expect.any(Number) });
    expect(top!.score).toBeGreaterThanOrEqual(0.7);
    expect(other).toEqual({ orientation: 'Front', score: expect.closeTo(1 - top!.score, 3) });
  });

  it('calls a detected car with white lamps and no red a front', () => {
    expect(vehicleOrientation(carWithLamps({ body: BLUE, lamps: HEADLAMP }), LAMP_CAR.plate, LAMP_CAR.body)[0]).toEqual({ orientation: 'Front', score: 0.75 });
  });

  it('says nothing of a front when no vehicle was detected around the plate (a plate on a wall has no lamps either)', () => {
    expect(vehicleOrientation(carWithLamps({ body: BLUE, lamps: HEADLAMP }), LAMP_CAR.plate)).toEqual([{ orientation: 'Unknown', score: 0 }]);
    // Red lamps are evidence on their own.
    expect(vehicleOrientation(carWithLamps({ lamps: TAIL_RED }), LAMP_CAR.plate)[0]!.orientation).toBe('Rear');
  });

  it('answers Unknown for a red car, whose paint cannot be told from its lamps', () => {
    expect(vehicleOrientation(carWithLamps({ body: [190, 30, 35], lamps: TAIL_RED }), LAMP_CAR.plate, LAMP_CAR.body)).toEqual([{ orientation: 'Unknown', score: 0 }]);
  });

  it('answers Unknown for a close-up that shows nothing beside the plate', () => {
    const image = carWithLamps({ body: BLUE, lamps: HEADLAMP });
    const closeUp = { xmin: 40, ymin: 40, xmax: 600, ymax: 200 };
    const evidence = lampEvidence(image, closeUp, { xmin: 0, ymin: 0, xmax: 640, ymax: 400 });
    expect(evidence.left.seen).toBeLessThan(0.25);
    expect(orientationFromLamps(evidence)).toEqual([{ orientation: 'Unknown', score: 0 }]);
  });

  it('counts only red inside the vehicle: a red sign beside a car front is not its tail lamp', () => {
    const image = carWithLamps({ body: BLUE, lamps: HEADLAMP, extra: { box: { xmin: 500, ymin: 170, xmax: 600, ymax: 270 }, colour: TAIL_RED } });
    expect(vehicleOrientation(image, LAMP_CAR.plate, LAMP_CAR.body)[0]).toEqual({ orientation: 'Front', score: 0.75 });
    // Without the vehicle's box the sign counts on one side: neither a front nor a rear.
    expect(lampEvidence(image, LAMP_CAR.plate).right.red).toBeGreaterThan(0.01);
    expect(vehicleOrientation(image, LAMP_CAR.plate)).toEqual([{ orientation: 'Unknown', score: 0 }]);
  });

  it('calls a rear from one side when the other is out of the photo', () => {
    // The car cut by the photo's left edge: only the right lamp is in it.
    const shift = 250;
    const cut = cropRect(carWithLamps({ lamps: TAIL_RED }), shift, 0, 640 - shift, 400);
    const plate = { xmin: LAMP_CAR.plate.xmin - shift, ymin: LAMP_CAR.plate.ymin, xmax: LAMP_CAR.plate.xmax - shift, ymax: LAMP_CAR.plate.ymax };
    const evidence = lampEvidence(cut, plate);
    expect(evidence.left.seen).toBeLessThan(0.25);
    expect(orientationFromLamps(evidence)[0]).toEqual({ orientation: 'Rear', score: 0.7 });
  });

  it('answers Unknown in a grey photo (an infrared night shot), where no lamp shows red', () => {
    const colour = carWithLamps({ body: BLUE, lamps: HEADLAMP });
    const grey = { ...colour, data: Buffer.from(colour.data) };
    for (let i = 0; i < grey.data.length; i += 3) {
      const y = Math.round(0.299 * grey.data[i]! + 0.587 * grey.data[i + 1]! + 0.114 * grey.data[i + 2]!);
      grey.data[i] = grey.data[i + 1] = grey.data[i + 2] = y;
    }
    expect(vehicleOrientation(colour, LAMP_CAR.plate, LAMP_CAR.body)[0]!.orientation).toBe('Front');
    expect(vehicleOrientation(grey, LAMP_CAR.plate, LAMP_CAR.body)).toEqual([{ orientation: 'Unknown', score: 0 }]);
    expect(vehicleOrientation({ data: Buffer.from(toGray(colour)), width: colour.width, height: colour.height, channels: 1 }, LAMP_CAR.plate, LAMP_CAR.body)).toEqual([{ orientation: 'Unknown', score: 0 }]);
  });
});
