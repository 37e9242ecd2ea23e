import { describe, expect, it } from 'vitest';
import { odometerLabel, odometerReading } from './odometer.js';

describe('odometerReading', () => {
  it.each([
    ['420353', '420353'],
    ['0 4 2 1 5 8', '042158'],
    ['O12345', '012345'], // a drum 0 read as the letter O
    ['02/430', '027430'], // a drum 7 half turned shows its stroke alone
    ['21/11/2020', undefined], // a date
    ['90.2', '902'], // LCD decimal: the tenths are part of the printed reading
    ['118668 km', '118668'],
    ['17658KM', '17658'],
    ['ODO 123456', '123456'],
    ['TOTAL 76447 km', '76447'],
    ['12:45', undefined], // clock
    ['21°C', undefined], // temperature
    ['-5 C', undefined],
    ['13C1000', undefined], // a temperature boxed with the clock beside it
    ['13°C 10:00', undefined],
    ['120 km/h', undefined], // speed
    ['TRIP A 123.4', undefined], // trip meter
    ['ODO B 4521', undefined],
    ['RANGE 320 km', undefined], // fuel range
    ['8.01/100', undefined], // fuel use, 8.0 l/100 with the l read as a 1
    ['8.0 I/100', undefined],
    ['6.5 L/100', undefined],
    ['7', undefined], // too short
    ['123456789', undefined], // too long
    ['Intelligent', undefined], // a word, not a number
    ['SYM', undefined],
  ])('%j → %j', (text, reading) => {
    expect(odometerReading(text)).toBe(reading);
  });
});

describe('odometerLabel', () => {
  it.each([
    ['ODO', 'odometer'],
    ['TOTAL', 'odometer'],
    ['TRIP', 'trip'],
    ['TRIP A', 'trip'],
    ['ODO B', 'trip'],
    ['km', 'unit'],
    ['mi', 'unit'],
    ['km/h', 'other'],
    ['123', undefined],
  ])('%j → %j', (text, label) => {
    expect(odometerLabel(text)).toBe(label);
  });
});
