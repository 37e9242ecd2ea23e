import { describe, expect, it } from 'vitest';
import { fadeColouredGlyphs, readThroughArtwork } from './coloured-glyphs.js';
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

describe('readThroughArtwork', () => {
  // GOLFING over a red sun: the sun's edge under the F reads as E's bar as photographed.
  const photo = look('GOLEING', [0.98, 0.97, 0.97, 0.83, 1, 0.97, 0.97]);
  const bright = look('GOLFING', [0.98, 0.98, 0.97, 0.73, 0.95, 0.97, 0.99]);

  it('reads a character as the brightest channel does when it alone differs, about as surely read', () => {
    expect(best([photo, bright])).toBe('GOLEING');
    expect(best(readThroughArtwork([photo, bright]))).toBe('GOLFING');
  });

  it.each([
    ['the brightest channel is much less sure', look('IMJSAYN', [0.97, 0.97, 0.99, 0.99, 0.98, 0.99, 0.97]), look('TMJSAYN', [0.6, 0.96, 0.99, 0.98, 0.96, 0.97, 0.96])],
    ['either look doubts the character', look('ZCS74S', [0.98, 0.94, 0.92, 1, 1, 0.56]), look('ZCS745', [0.97, 0.92, 0.86, 1, 0.99, 0.52])],
    ['the photo barely saw one there', look('UASV9218', [0.25, 0.99, 0.99, 0.93, 0.99, 0.98, 0.99, 1]), look('JASV9218', [0.61, 0.99, 0.99, 0.77, 0.98, 0.96, 0.98, 0.99])],
    ['two characters differ', photo, look('GOLFIMG', [0.98, 0.98, 0.97, 0.73, 0.95, 0.9, 0.99])],
    ['the looks differ in length', photo, look('GOLFNG', [0.98, 0.98, 0.97, 0.73, 0.97, 0.99])],
  ])('leaves the looks alone when %s', (_, a, b) => {
    expect(readThroughArtwork([a, b])).toEqual([a, b]);
  });
});
