import { REGION_TEMPLATES, countryOf, templatesFor } from './region-templates.js';

export interface RegionScope {
  /** Region codes the client named (`us-ca`, `br`), lower case. */
  regions: readonly string[];
  /** Only formats of the named regions count (`config.region: "strict"`). */
  strict: boolean;
}

export interface RegionFit {
  /** The named region the format answers for (`us-ca` for a US format under `us-ca`), else
   * the format's country: a state cannot be told from the shape alone. */
  code: string;
  /** 1 for a specific national or state format, less for generic shapes and for regions the
   * client did not name. */
  weight: number;
}

/** Generic shapes (`X` slots) catch any 5..8 characters, including words: they count for less. */
export const GENERIC_WEIGHT = 0.45;
/** All letters in a generic shape: vanity plates exist, but state names and dealer words are
 * far more common on a photo. */
export const LETTERS_ONLY_WEIGHT = 0.2;
/** A region the client did not name, when it named some: its specific formats count for less
 * than a named region's format read with one look-alike swap. */
export const FOREIGN_FACTOR = 0.4;
/** A named state's neighbours: a California camera sees Texan and New York plates every day, so
 * another state's specific format counts nearly as much as the named state's own, and more than
 * the country's generic shape (which a look-alike swap into the named state's format would beat). */
export const SIBLING_FACTOR = 0.8;

/** True when `text` has the template's shape exactly: `A` a letter, `9` a digit, `X` either. */
export function hasShape(text: string, template: string): boolean {
  if (text.length !== template.length) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const t = template[i]!;
    const digit = c >= '0' && c <= '9';
    if ((t === '9' && !digit) || (t === 'A' && digit)) return false;
  }
  return true;
}

interface ScopedTemplate { region: string; template: string; named: string | undefined; sibling?: boolean }

const cache = new Map<string, ScopedTemplate[]>();

/** Templates to try for a scope: those of the named regions (a state brings its country's),
 * then, unless strict, every other region's. */
function scopedTemplates(scope: RegionScope): ScopedTemplate[] {
  const key = `${scope.strict}|${scope.regions.join(',')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const out: ScopedTemplate[] = [];
  const seen = new Set<string>();
  for (const named of scope.regions) {
    for (const t of templatesFor(named)) {
      out.push({ ...t, named });
      seen.add(`${t.region}|${t.template}`);
    }
    // A country named: its states' formats are its formats too. A state named: the other
    // states' formats are its country's, at SIBLING_FACTOR (not when strict: only the state's).
    const country = countryOf(named);
    const sibling = named !== country;
    if (sibling && scope.strict) continue;
    for (const [region, list] of Object.entries(REGION_TEMPLATES)) {
      if (countryOf(region) !== country || region === named || region === country) continue;
      for (const template of list) {
        if (seen.has(`${region}|${template}`)) continue;
        out.push(sibling ? { region, template, named: country, sibling } : { region, template, named });
        if (sibling) seen.add(`${region}|${template}`);
      }
    }
  }
  if (!scope.strict) {
    for (const [region, list] of Object.entries(REGION_TEMPLATES)) {
      for (const template of list) if (!seen.has(`${region}|${template}`)) out.push({ region, template, named: undefined });
    }
  }
  if (cache.size > 256) cache.clear();
  cache.set(key, out);
  return out;
}

/** Countries whose plates (12 x 6 in) draw a seven-character number narrow: about 0.42 of the
 * line height per character, where Brazil's and Europe's take about 0.65 (see plate-font.ts). */
const NARROW_FONT_COUNTRIES = new Set(['us', 'ca', 'mx']);

/** Whether a region's plates are drawn in the font width seen: `wide` true for wide characters. */
const fontFits = (region: string, wide: boolean) => NARROW_FONT_COUNTRIES.has(countryOf(region)) !== wide;

/** The best region format `text` (upper case A-Z0-9) fits as it is, or null. Look-alike swaps
 * (O/0, B/8) are the caller's hypotheses: it asks once per spelling. When formats of several
 * regions fit equally (ABC1234 is a Texan, a New York and an old Brazilian number), `wide` (the
 * characters seen wide for their height, see plate-font.ts) picks a region whose plates use such
 * a font; without it the first listed region stands. */
export function bestRegionFit(text: string, scope: RegionScope, wide?: boolean): RegionFit | null {
  const hinted = scope.regions.length > 0;
  const hasDigit = /[0-9]/.test(text);
  let best: RegionFit | null = null;
  for (const { region, template, named, sibling } of scopedTemplates(scope)) {
    if (!hasShape(text, template)) continue;
    const generic = template.includes('X');
    let weight = generic ? (hasDigit ? GENERIC_WEIGHT : LETTERS_ONLY_WEIGHT) : 1;
    if (hinted && !named) weight *= FOREIGN_FACTOR;
    if (sibling) weight *= SIBLING_FACTOR;
    const code = named ?? countryOf(region);
    const betterFont = wide !== undefined && best !== null && weight === best.weight && fontFits(code, wide) && !fontFits(best.code, wide);
    if (!best || weight > best.weight || betterFont) best = { code, weight };
  }
  return best;
}
