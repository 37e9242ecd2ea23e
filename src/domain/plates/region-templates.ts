/**
 * Plate formats per region, as letter/digit templates: `A` a letter, `9` a digit, `X` either.
 * Region codes are lower-case ISO 3166, some with a state (`us-ca`, `au-vic`). Only formats
 * that are documented for current issues are listed; vanity and special plates fall back to the
 * generic template of the country (scored lower, never rejected unless the caller asks for a
 * strict region).
 */
export const REGION_TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  // United States: generic 2..8 alphanumerics covers vanity and older series.
  us: ['XXXXXXX', 'XXXXXX', 'XXXXX', 'XXXXXXXX'],
  'us-ca': ['9AAA999', '9A99999'], // 8ABC123 passenger; 4D12345 commercial
  'us-tx': ['AAA9999', 'AA9A999'], // ABC1234 (since 2009); DD1F234 truck series
  'us-ny': ['AAA9999'], // ABC1234 (Excelsior series)
  'us-fl': ['AAAA99', '999AAA', 'AAA9A9', '99AAAA'], // ABCD12, 123ABC, ABC1D2 (rotating series)
  'us-pa': ['AAA9999'], // ABC1234
  'us-il': ['AA99999', 'A999999', '9999999'], // AB12345; A123456; 1234567 (older numeric series)
  'us-nh': ['9999999', '999999'], // 1234567: numeric passenger series
  'us-de': ['999999', '99999'], // 123456: numeric plates
  'us-oh': ['AAA9999'], // ABC1234
  'us-nj': ['A99AAA', 'AAA99A'], // A12BCD; ABC12D
  'us-ga': ['AAA9999'], // ABC1234
  'us-va': ['AAA9999'], // ABC1234
  'us-wa': ['AAA9999'], // ABC1234
  'us-az': ['AAA9999'], // ABC1234
  'us-ma': ['9AAA99', '999AA9', '9AA999', '99AA99'], // 1ABC23; 123AB4; 1AB234; 12AB34
  'us-mi': ['AAA9999', '9AAA99'], // ABC1234; 1ABC23
  'us-mo': ['AA9A9A'], // AB1 C2D
  'us-md': ['9AA9999', 'AAA999'], // 1AB2345; older ABC123
  'us-nc': ['AAA9999'], // ABC-1234
  'us-al': ['9A9999A'], // 1A2345B: county number first
  'us-ak': ['AAA999'], // ABC 123
  'us-ar': ['999AAA'], // 123 ABC
  'us-co': ['999AAA', 'AAAA99', 'AAAA999'], // 123-ABC; ABC-D12; ABC-D123
  'us-ct': ['999AAA', 'AA99999'], // 123-ABC; AB-12345
  'us-ia': ['999AAA', 'AAA999'], // 123 ABC; ABC 123
  'us-ks': ['999AAA'], // 123 ABC
  'us-ky': ['999AAA'], // 123 ABC
  'us-nv': ['999A99', '999AAA'], // 123 A45; 123 ABC
  'us-tn': ['999AAA', 'A999AA'], // 123 ABC; A12 34B
  'us-wi': ['999AAA', 'AAA9999'], // 123-ABC; ABC-1234
  'us-ok': ['999AAA', 'AAA999'], // 123-ABC; ABC-123
  'us-la': ['AAA999'], // ABC 123
  'us-mn': ['AAA999', '999AAA'], // ABC 123; 123 ABC
  'us-ms': ['AAA999'], // ABC 123
  'us-nd': ['AAA999'], // ABC 123
  'us-nm': ['AAA999', '999AAA'], // ABC-123; 123-ABC
  'us-vt': ['AAA999'], // ABC 123
  'us-sc': ['AAA999'], // ABC 123
  'us-hi': ['AAA999'], // ABC 123
  'us-or': ['AAA999', '999AAA'], // ABC 123; 123 ABC
  // Brazil: old grey plates ABC1234, Mercosur ABC1D23 (fourth position becomes a letter).
  br: ['AAA9999', 'AAA9A99'],
  // United Kingdom (since 2001): AB12CDE; Northern Ireland ABC1234.
  gb: ['AA99AAA', 'AAA9999', 'AAA999'],
  // Germany: district 1-3 letters, 1-2 letters, 1-4 digits (B AB 1234, M A 1) -> 5..8 chars.
  de: ['AAA9999', 'AA9999', 'AAAA9999', 'AAA999', 'AAAA999', 'AA999', 'AAA99', 'AAAA99', 'AA99'],
  fr: ['AA999AA'], // SIV since 2009: AB-123-CD
  it: ['AA999AA'], // AB 123 CD
  es: ['9999AAA'], // 1234 BCD (since 2000)
  nl: ['99AAA9', '9AAA99', 'AA999A', 'A999AA', 'AAA99A', 'A99AAA', '99AA99', 'AA99AA', 'AA9999'], // sidecodes 4..11: 12-ABC-3 ...
  pl: ['AA99999', 'AA9999A', 'AAA9999', 'AAA99AA', 'AA999AA', 'AAA9A99'], // WA 12345, KR 1234A, WPI 1234 ...
  pt: ['AA99AA', '99AA99', '9999AA', 'AA9999'], // AA-00-AA since 2020; 00-AA-00; 00-00-AA; AA-00-00
  be: ['9AAA999'], // 1-ABC-123
  se: ['AAA999', 'AAA99A'], // ABC 123; ABC 12D since 2019
  at: ['AA9999A', 'A9999A', 'AA999AA'], // W 12345 A style: district + digits + letters
  ch: ['AA999999', 'AA99999', 'AA9999'], // ZH 123456
  dk: ['AA99999'], // AB 12 345
  no: ['AA99999'], // AB 12345
  fi: ['AAA999'], // ABC-123
  ie: ['999A99999', '99A9999', '999AA9999'], // 231-D-12345 (year-county-number)
  cz: ['9A99999', '9AA9999'], // 1A2 3456
  sk: ['AA999AA'], // BA-123AB: district (until 2022) or state-wide series (since 2023), same layout
  hu: ['AAA999', 'AAAA999'], // ABC-123 (1990-2022); AA AA-123 (since 2022)
  ro: ['AA99AAA', 'A99AAA', 'A999AAA'], // CJ 12 ABC (county); B 12 ABC, B 123 ABC (Bucharest)
  bg: ['AA9999AA'], // CA 1234 AB (two-letter provinces; the one-letter ones: NAMED_ONLY_TEMPLATES)
  hr: ['AA999A', 'AA999AA', 'AA9999A', 'AA9999AA'], // ZG 123-A ... ZG 1234-AB
  // Slovenia: area code, coat of arms, then A-123 or AB-123 in the regular series. Chosen plates
  // (any 3-6 characters after the area code) get no generic shape here: without a hint, one
  // would hand every wide-font vanity plate to Slovenia.
  si: ['AAA999', 'AAAA999'],
  gr: ['AAA9999'], // ABC-1234 (letters that Greek and Latin share)
  lt: ['AAA999'], // ABC 123
  lv: ['AA9999', 'AA999', 'AA99'], // AB-1234: up to four digits, no leading zero
  ee: ['999AAA'], // 123 ABC
  // Luxembourg: AB 1234; five digits (older and chosen plates). Four digits alone are left out:
  // in a photo they are far more often a house or phone number than a Luxembourg plate.
  lu: ['AA9999', '99999'],
  mt: ['AAA999'], // ABC 123
  cy: ['AAA999'], // ABC 123
  // Canada: Ontario ABCD123, Quebec/BC/Alberta ABC123 or ABC1234.
  ca: ['AAAA999', 'AAA999', 'AAA9999', '999AAA', 'AA9999'],
  'ca-on': ['AAAA999'], // ABCD 123
  'ca-qc': ['A99AAA', '999AAA'], // V12 ABC; 123 ABC
  'ca-bc': ['AA999A', '999AAA'], // AB1 23C; 123 ABC
  'ca-ab': ['AAA9999'], // ABC-1234
  // Mexico: private cars ABC-123-D (2016 series), older ABC-12-34.
  mx: ['AAA999A', 'AAA9999', 'AA99999'],
  // Australia: per state.
  au: ['AAA99A', '9AA9AA', 'AAA999', '999AAA', 'AA99AA', 'A99AA'],
  'au-nsw': ['AA99AA', 'AAA99A'], // AB12CD; ABC12D
  'au-vic': ['9AA9AA', 'AAA999'], // 1AB2CD; ABC123
  'au-qld': ['999AA9', '999AAA'], // 123AB4; 123ABC
  'au-wa': ['9AAA999'], // 1ABC234
  'au-sa': ['A999AAA', 'AAA999'], // S123ABC; ABC123
  'au-tas': ['A9999A', 'AA9999'], // A1234B (2008); AB1234
  'au-act': ['AAA99A', 'AAA999'], // YAA12A
  'au-nt': ['AA99AA', '999999'], // CA12BC
};

/** Formats that count only for a client that names the region. Unhinted, they would outbid
 * another country's number read with one look-alike swap: Slovakia's SI819AK read as S1819AK
 * fits Bulgaria's one-letter provinces as well as SI819AK fits the French format. */
export const NAMED_ONLY_TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  bg: ['A9999AA'], // B 1234 AB: Varna, Burgas and the other one-letter provinces
};

/** The country of a region code (`us-ca` -> `us`). */
export function countryOf(code: string): string {
  return code.split('-')[0] ?? code;
}

/** Templates of a region plus, for a state, those of its country (a state's plate often keeps
 * the country's generic shape). Unknown codes give an empty list. */
export function templatesFor(code: string): Array<{ region: string; template: string }> {
  const out: Array<{ region: string; template: string }> = [];
  for (const t of [...(REGION_TEMPLATES[code] ?? []), ...(NAMED_ONLY_TEMPLATES[code] ?? [])]) out.push({ region: code, template: t });
  const country = countryOf(code);
  if (country !== code) {
    const gen = REGION_TEMPLATES[country];
    if (gen) for (const t of gen) out.push({ region: country, template: t });
  }
  return out;
}

/** `regions` as clients send it: repeated values, one comma-joined string, or both. Lower-cased,
 * trimmed, deduplicated; empty entries dropped. Unknown codes are kept (they guide nothing). */
export function parseRegions(input: string | readonly string[] | undefined | null): string[] {
  if (input == null) return [];
  const parts = (Array.isArray(input) ? input : [input]).flatMap((v) => String(v).split(','));
  const seen = new Set<string>();
  for (const p of parts) {
    const c = p.trim().toLowerCase().replace(/_/g, '-');
    if (c) seen.add(c);
  }
  return [...seen];
}
