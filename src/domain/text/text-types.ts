/** Grammars of the simpler identifiers the OCR reader extracts. */

/** Odometer: 3 to 7 digits; a decimal tenths wheel may follow. Clocks (12:34), temperatures
 * (21°C) and trip meters (a decimal part on a short number) are not odometers. */
export function odometerReading(text: string): string | undefined {
  const t = text.replace(/\s+/g, '').toUpperCase();
  if (/\d{1,2}:\d{2}/.test(t) || /°|TEMP|[0-9]C$|[0-9]F$/.test(t)) return undefined;
  if (/TRIP|ODO?\s*A|ODO?\s*B/.test(t) && !/\d{5,}/.test(t)) return undefined;
  const digits = t.replace(/[OQD]/g, '0').replace(/[IL]/g, '1').replace(/S/g, '5').replace(/B/g, '8').replace(/[^0-9]/g, '');
  return digits.length >= 3 && digits.length <= 8 ? digits : undefined;
}

/** Trailer and fleet identifiers: 3 to 12 letters and digits with at least one digit. */
export function trailerId(text: string): string | undefined {
  const t = text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return t.length >= 3 && t.length <= 12 && /\d/.test(t) ? t : undefined;
}

/** Hull registration numbers. US state numbering (33 CFR 174): two-letter state code, 1 to 4
 * digits, 1 or 2 letters, written with spaces or hyphens (CF 1234 AB). Other countries' small
 * craft use short letter+digit marks, accepted as 4 to 10 alphanumerics with both kinds. */
export function boatRegistration(text: string): string | undefined {
  const t = text.toUpperCase().replace(/[^A-Z0-9 -]/g, ' ').replace(/\s+/g, ' ').trim();
  const us = /\b([A-Z]{2})[ -]?(\d{1,4})[ -]?([A-Z]{1,2})\b/.exec(t);
  if (us) return `${us[1]} ${us[2]} ${us[3]}`;
  const compact = t.replace(/[ -]/g, '');
  return compact.length >= 4 && compact.length <= 10 && /\d/.test(compact) && /[A-Z]/.test(compact) ? compact : undefined;
}
