/** Minimal region grammars used until `src/domain/plates` lands: templates per region
 * (L letter, D digit, A either) and the position-based O/0, I/1, B/8, S/5 swaps. */

export interface RegionTemplate {
  code: string;
  pattern: RegExp;
  /** Prior weight: a specific national format counts more than a generic one. */
  weight: number;
}

const t = (code: string, shape: string, weight = 1): RegionTemplate => ({
  code,
  weight,
  pattern: new RegExp(
    `^${shape.replace(/[LDA]/g, (c) => ({ L: '[A-Z]', D: '[0-9]', A: '[A-Z0-9]' })[c]!)}$`,
  ),
});

/** Formats of the regions the bench covers plus a few common neighbours. */
export const REGION_TEMPLATES: readonly RegionTemplate[] = [
  // Brazil: old (ABC1234) and Mercosur (ABC1D23).
  t('br', 'LLLDDDD'),
  t('br', 'LLLDLDD'),
  // US: frequent state formats, then a generic 5-8 alphanumeric with a digit.
  t('us', 'LLLDDDD'),
  t('us', 'DLLLDDD'),
  t('us', 'LLLDDD'),
  t('us', 'DDDLLL'),
  t('us', 'DLLDDD'),
  t('us', 'DDDDDDD', 0.7),
  t('us', 'LLDLDLD', 0.8),
  t('us', 'LLDDDDD', 0.8),
  t('us', 'DLLDDDD', 0.8),
  t('us', '(?=.*[0-9])A{5,8}', 0.45),
  // Vanity plates are all letters, but so are state names and dealer frames.
  t('us', 'L{5,8}', 0.2),
  // Europe.
  t('gb', 'LLDDLLL'),
  t('fr', 'LLDDDLL'),
  t('it', 'LLDDDLL'),
  t('sk', 'LLDDDLL'),
  t('hr', 'LLDDDLL'),
  t('hr', 'LLDDDDLL'),
  t('es', 'DDDDLLL'),
  t('pl', 'LLDDDDD', 0.8),
  t('de', 'L{1,3}L{1,2}D{1,4}', 0.6),
  t('nl', 'LLDDDL', 0.8),
  t('nl', 'DLLLDD', 0.8),
  t('eu', 'L{1,3}D{2,4}L{0,3}', 0.5),
  t('eu', '(?=.*[0-9])A{4,8}', 0.4),
];

/** Characters a recogniser mixes up, both ways. */
export const CONFUSIONS: Readonly<Record<string, string>> = {
  O: '0', Q: '0', D: '0', I: '1', L: '1', Z: '2', S: '5', B: '8', G: '6', T: '7', A: '4',
  '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '8': 'B', '6': 'G', '7': 'T', '4': 'A',
};

/** Templates that apply to the requested regions (`us-ca` uses the `us` ones); all when none. */
export function templatesFor(regions: readonly string[], strict: boolean): Array<RegionTemplate & { preferred: boolean }> {
  const wanted = new Set<string>();
  for (const r of regions) {
    const base = r.toLowerCase().split('-')[0]!;
    wanted.add(base);
    if (EU_CODES.has(base)) wanted.add('eu');
  }
  return REGION_TEMPLATES.filter((tpl) => !strict || wanted.size === 0 || wanted.has(tpl.code)).map((tpl) => ({
    ...tpl,
    preferred: wanted.has(tpl.code),
  }));
}

/** The requested region that a template of `code` answers for (`us` matched under `us-ca`). */
export function regionLabel(code: string, regions: readonly string[]): string {
  const hit = regions.find((r) => r.toLowerCase().split('-')[0] === code || (code === 'eu' && EU_CODES.has(r.toLowerCase())));
  return hit ? hit.toLowerCase() : code;
}

const EU_CODES = new Set([
  'at', 'be', 'bg', 'hr', 'cy', 'cz', 'dk', 'ee', 'fi', 'fr', 'de', 'gr', 'hu', 'ie', 'it', 'lv', 'lt', 'lu', 'mt', 'nl',
  'pl', 'pt', 'ro', 'sk', 'si', 'es', 'se', 'gb', 'no', 'ch', 'eu',
]);
