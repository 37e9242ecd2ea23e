import { describe, expect, it } from 'vitest';
import { doubtDisagreements } from './look-agreement.js';
import { bestPlate as best, look } from '../../../test/fixtures/plate-looks.js';

describe('doubtDisagreements', () => {
  // ASV 9218 with a cactus before the number: barely seen as photographed (U), a fair J in the
  // brightest channel; with the J, the reading would fit a foreign format (AAAA9999).
  const photo = look('UASV9218', [0.25, 0.99, 0.99, 0.93, 0.99, 0.98, 0.99, 1]);
  const bright = look('JASV9218', [0.61, 0.99, 0.99, 0.77, 0.98, 0.96, 0.98, 0.99]);

  it('drops a mark the two looks read differently when one of them barely saw it', () => {
    expect(best([photo, bright])).toBe('JASV9218');
    expect(best(doubtDisagreements([photo, bright]))).toBe('ASV9218');
  });

  it('leaves characters alone that both looks saw fairly, whichever they read (O 0.48 against D 0.71)', () => {
    const a = look('OK20Z5S', [0.48, 0.97, 0.99, 0.45, 0.84, 0.99, 0.97]);
    const b = look('DK20Z5S', [0.71, 0.96, 0.99, 0.49, 0.87, 0.99, 0.98]);
    expect(doubtDisagreements([a, b])).toEqual([a, b]);
  });

  it('leaves looks of different lengths, single looks and further looks alone', () => {
    const shorter = look('ASV9218', [0.99, 0.99, 0.93, 0.99, 0.98, 0.99, 1]);
    expect(doubtDisagreements([photo, shorter])).toEqual([photo, shorter]);
    expect(doubtDisagreements([photo])).toEqual([photo]);
    expect(doubtDisagreements([photo, bright, shorter])[2]).toBe(shorter);
  });
});
