import { describe, expect, it } from 'vitest';
import { isVehicleBadge } from './vehicle-badges.js';

describe('isVehicleBadge', () => {
  it.each([
    ['TOYOTA', true], ['SAAB', true], ['NISS', true], ['CHEVROL', true], ['T0Y0TA', true], ['fiat', true],
    // Plates, vanity ones included, and too little of a name to tell.
    ['ABC1234', false], ['GWAGEN', false], ['CHVYSSR', false], ['GOLFING', false], ['FOR', false], ['TOYOTAS', false],
  ])('%s: %s', (reading, badge) => expect(isVehicleBadge(reading)).toBe(badge));
});
