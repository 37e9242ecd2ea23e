import { describe, expect, it } from 'vitest';
import { fadeColouredGlyphs } from './coloured-glyphs.js';
import { bestPlate as best, look } from '../../../test/fixtures/plate-looks.js';

describe('fadeColouredGlyphs', () => {
  // ASN [peach] 1074: the peach reads as O as photographed and fades in the brightest channel.
  const photo = look('ASNO1074', [0.98, 0.99, 0.99, 0.8, 0.98, 1, 1, 1]);
  const bright = look('ASNO1074', [0.99, 1, 1, 0.33, 1, 1, 1, 1]);

  it('lets the reading drop a lone character that faded in the brightest channel', () => {
    expect(best([photo, bright])).toBe('ASNO1074');
    expect(best(fadeColouredGlyphs([photo, bright]))).toBe('ASN1074');
  });

  it('leaves plates with coloured characters alone (every character fades)', () => {
    const red = look('ASNO1074', [0.3, 0.4, 0.35, 0.3, 0.4, 0.45, 0.4, 0.4]);
    expect(fadeColouredGlyphs([photo, red])).toEqual([photo, red]);
  });

  it('leaves looks of different lengths and single looks alone', () => {
    const shorter = look('ASN1074', [0.99, 1, 1, 1, 1, 1, 1]);
    expect(fadeColouredGlyphs([photo, shorter])).toEqual([photo, shorter]);
    expect(fadeColouredGlyphs([photo])).toEqual([photo]);
  });
});
