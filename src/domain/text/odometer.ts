/**
 * Odometer grammar: which text on a dashboard is the total distance, and what its digits are.
 *
 * Convention (the TRODO labels of the odometers dataset): every digit left to right as printed,
 * including a tenths wheel or an LCD decimal when one is legible (42035.3 is read 420353).
 */

/** Text that is certainly not a total distance: clocks, temperatures, speeds, fuel ranges. */
const NOT_ODOMETER = [
  /\d{1,2}:\d{2}/, // clock
  /°|TEMP|\d\s*[CF]$/, // temperature
  /\d\s*[CF]\s*\d/, // a temperature boxed with the clock beside it (13C 10:00)
  /KM\/H|MPH|RPM/, // speed or revs
  /RANGE|AVG|L\/100|MPG|KM\/L/, // fuel figures
  /\d[.,]\d\s*[1I]\/100/, // fuel use with its l read as a 1 (8.0 l/100 read 8.01/100): no drum shows a decimal then /100
  /\d{1,2}\/\d{1,2}\/\d{2,4}/, // date
];

/** What a short word next to a number says about it. */
export type OdometerLabel = 'odometer' | 'trip' | 'unit' | 'other';

export function odometerLabel(text: string): OdometerLabel | undefined {
  const t = text.toUpperCase().replace(/[^A-Z/]/g, '');
  if (t === '') return undefined;
  if (/TRIP|^TR[AB]?$|ODO?[AB]$/.test(t)) return 'trip';
  if (/ODO|TOTAL|TOT$/.test(t)) return 'odometer';
  if (/^(KM|MI|MILES?|KMS)$/.test(t)) return 'unit';
  return 'other';
}

/** Letters the recogniser confuses with digits on odometer fonts (drums and seven segments). */
const DIGIT_LOOKALIKES: Record<string, string> = { O: '0', Q: '0', D: '0', U: '0', I: '1', L: '1', J: '1', T: '7', Z: '2', S: '5', B: '8', G: '6' };

/**
 * The reading in one line of text, or undefined. 3 to 8 digits; a decimal separator between
 * digits is dropped (the tenths are part of the printed reading); a unit (km, mi) or an ODO
 * label on the line is accepted; trip meters, clocks, temperatures and speeds are refused.
 */
export function odometerReading(text: string): string | undefined {
  const t = text.toUpperCase().replace(/\s+/g, ' ').trim();
  if (NOT_ODOMETER.some((re) => re.test(t))) return undefined;
  if (/TRIP|\bODO ?[AB]\b|\bTR ?[AB]\b/.test(t)) return undefined;
  // Labels and units around the number are context, not characters of the reading.
  const core = t.replace(/\b(ODO|ODOMETER|TOTAL|KM|KMS|MI|MILES)\b/g, ' ').replace(/(KM|MI)$/, '').trim();
  // A number may carry a few lookalike letters, but a word is not a number.
  const letters = core.replace(/[^A-Z]/g, '');
  const digitsOnly = core.replace(/[^0-9]/g, '');
  if (letters.length > 0 && letters.length * 2 > digitsOnly.length) return undefined;
  // A slash between digits is a drum 7 half turned (its stroke without the bar), not a separator.
  const digits = core.replace(/(?<=\d)\/(?=\d)/g, '7').replace(/[A-Z]/g, (c) => DIGIT_LOOKALIKES[c] ?? '').replace(/[^0-9]/g, '');
  return digits.length >= 3 && digits.length <= 8 ? digits : undefined;
}
