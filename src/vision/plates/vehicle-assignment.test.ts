import { describe, expect, it } from 'vitest';
import type { PlateReading } from './plate.types.js';
import { carWithLamps, LAMP_CAR } from '../../../test/fixtures/vehicle-images.js';
import { assignVehicles, type FoundVehicle } from './vehicle-assignment.js';

const image = { data: Buffer.alloc(3), width: 1, height: 1, channels: 3 as const };
const plate = (plateText: string, xmin: number): PlateReading => ({
  box: { xmin, ymin: 100, xmax: xmin + 60, ymax: 130 }, plate: plateText, region: { code: 'us', score: 0.9 },
  score: 0.9, candidates: [{ plate: plateText, score: 0.9 }], dscore: 0.9, vehicle: undefined,
});
const car: FoundVehicle = { type: 'Sedan', score: 0.8, box: { xmin: 0, ymin: 0, xmax: 300, ymax: 300 } };
const bus: FoundVehicle = { type: 'Bus', score: 0.7, box: { xmin: 1000, ymin: 0, xmax: 1500, ymax: 300 } };

describe('assignVehicles', () => {
  it('puts a plate on the vehicle that holds it and returns the others apart', () => {
    const out = assignVehicles(image, [plate('abc123', 50)], [car, bus], { strict: false, mmc: false });
    expect(out.plates[0]!.vehicle).toEqual({ type: 'Sedan', score: 0.8, box: car.box });
    expect(out.vehiclesWithoutPlate).toEqual([{ vehicle: { type: 'Bus', score: 0.7, box: bus.box } }]);
  });

  it('drops plates on no vehicle when strict, keeps them otherwise', () => {
    const plates = [plate('abc123', 50), plate('xyz789', 600)];
    expect(assignVehicles(image, plates, [car], { strict: true, mmc: false }).plates.map((p) => p.plate)).toEqual(['abc123']);
    expect(assignVehicles(image, plates, [car], { strict: false, mmc: false }).plates).toHaveLength(2);
  });

  it('answers colour from the colour finder and an unknown orientation with mmc where the photo shows nothing beside the plate', () => {
    const out = assignVehicles(image, [plate('abc123', 50), plate('xyz789', 600)], [car], {
      strict: false, mmc: true, colour: () => [{ color: 'red', score: 0.7 }],
    });
    expect(out.plates[0]).toMatchObject({ color: [{ color: 'red', score: 0.7 }], orientation: [{ orientation: 'Unknown', score: 0 }] });
    expect(out.plates[1]).toMatchObject({ color: [{ color: 'unknown', score: 0 }], vehicle: undefined });
  });

  it('with mmc, tells the orientation from the lamps beside the plate; a vehicle without a plate stays Unknown', () => {
    const photo = carWithLamps({ lamps: [200, 25, 30] });
    const reading = { ...plate('abc123', 0), box: { ...LAMP_CAR.plate } };
    const onCar: FoundVehicle = { type: 'Sedan', score: 0.8, box: { ...LAMP_CAR.body } };
    const elsewhere: FoundVehicle = { type: 'Sedan', score: 0.6, box: { xmin: 500, ymin: 0, xmax: 640, ymax: 100 } };
    const out = assignVehicles(photo, [reading], [onCar, elsewhere], { strict: false, mmc: true });
    expect(out.plates[0]!.orientation![0]).toMatchObject({ orientation: 'Rear' });
    expect(out.vehiclesWithoutPlate[0]!.orientation).toEqual([{ orientation: 'Unknown', score: 0 }]);
  });
});

describe('assignVehicles: the plate as a ruler', () => {
  const photo = { data: Buffer.alloc(1280 * 720 * 3), width: 1280, height: 720, channels: 3 as const };
  // A car-sized box (1.8 x 1.4 m with a 61 px US plate) that the detector called a bus.
  const bus: FoundVehicle = { type: 'Bus', score: 0.4, box: { xmin: 400, ymin: 200, xmax: 760, ymax: 480 } };
  const reading = (code: string): PlateReading => ({ ...plate('abc123', 550), box: { xmin: 550, ymin: 420, xmax: 611, ymax: 450 }, region: { code, score: 0.9 } });

  it('gives the vehicle the type its size allows', () => {
    expect(assignVehicles(photo, [reading('us-ca')], [bus], { strict: false, mmc: false }).plates[0]!.vehicle).toEqual({ type: 'Sedan', score: 0.4, box: bus.box });
  });

  it('keeps the detector type when the plate width is unknown', () => {
    expect(assignVehicles(photo, [reading('unknown')], [bus], { strict: false, mmc: false }).plates[0]!.vehicle!.type).toBe('Bus');
  });
});
