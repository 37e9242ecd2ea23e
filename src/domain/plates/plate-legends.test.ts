import { describe, expect, it } from 'vitest';
import { isLegendReading, regionFromLegend } from './plate-legends.js';

describe('regionFromLegend', () => {
  // Lines as the recogniser read them off US plate crops (plates-crops-us), and clean legends.
  it.each([
    ['California', 'us-ca'],
    ['WASHINGTON,DC', 'us-dc'],
    ['Washington, D.C.', 'us-dc'],
    ['TAXATLONWITHOUTREPRESENTATION', 'us-dc'],
    ['Washington', 'us-wa'],
    ['West Virginia', 'us-wv'],
    ['Virginia', 'us-va'],
    ['ARKANSAS', 'us-ar'],
    ['Kansas', 'us-ks'],
    ['loWA', 'us-ia'],
    ['CLIVE FREE OR.DIE', 'us-nh'],
    ['Z.HAMPSHIRE', 'us-nh'],
    ['Landof Lincoln', 'us-il'],
    ["SPORTSMAN'SPARADISE", 'us-la'],
    ['Lomisiana', 'us-la'],
    ['The Volunteer State', 'us-tn'],
    ['LIFE ELEVATED', 'us-ut'],
    ['Ontario', 'ca-on'],
    ['QUEENSLAND', 'au-qld'],
    ['AUGCaliformia', 'us-ca'],
    ['Fir st inEtight', 'us-nc'],
    ['GREATFACES.GREATPLACES.', 'us-sd'],
    // Lines read off plates-scenes: a Slovak band's sign, Brazilian city strips and a Mercosur band.
    ['SK', 'sk'],
    ['CZ', 'cz'],
    ['BA-SALVADOR', 'br'],
    ['MG-MONTES CLAROS', 'br'],
    ['DF·BRASiLIA', 'br'],
    ['BRASIL', 'br'],
  ])('%s names %s', (line, region) => expect(regionFromLegend(line)).toBe(region));

  it.each(['AUG98', 'POLK', 'MAIN', 'IOWB', 'TRUCK', 'Sunshine', '469BWW', '', 'D', 'SKODA', 'MANATEE', 'BAR-B-Q'])('%j names no region', (line) => {
    expect(regionFromLegend(line)).toBeUndefined();
  });
});

describe('isLegendReading', () => {
  it.each([
    ['ar1z0na', true], // ARIZONA as the trained reader folds it
    ['CALIFORNIA', true],
    ['CALIFORNA', true], // a letter dropped
    ['LIVEFREE0RDIE', true],
    ['BRASIL', true],
    ['AYX8803', false],
    ['TEXAS', false], // too short to tell from a vanity plate
    ['OHIO', false],
    ['ARIZONA7', false], // a digit no fold explains
    ['SWEETTHING', false],
    ['TARHEELS', false],
  ])('%s -> %s', (reading, expected) => {
    expect(isLegendReading(reading)).toBe(expected);
  });
});
