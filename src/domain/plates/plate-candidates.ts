import { REGION_TEMPLATES, countryOf, templatesFor } from './region-templates.js';

export interface RawReading {
  text: string;
  /** One per character of `text` after normalisation, 0..1; absent means use `confidence`. */
  charConfidences?: number[];
  confidence: number;
}

export interface ScoreOptions {
  regions?: string[];
  /** Only readings that fit a template of `regions` are returned (`config.region: "strict"`). */
  strictRegion?: boolean;
  /** Regular expressions (`config.text_formats`); a reading that matches one is preferred. */
  textFormats?: string[];
}

export interface PlateCandidate {
  plate: string;
  score: number;
  region: { code: string; score: number };
}

/**
 * Confusable resolution rule: a character that the best-fitting template wants as the other
 * kind is swapped with its look-alike (digit slot: O->0, I->1, B->8, S->5, Z->2, G->6, Q->0,
 * D->0, T->7; letter slot: the reverse). Each swap costs fit, so a reading that already fits
 * wins over one that needs swaps. `X` slots (generic formats) keep what was read.
 */
const TO_DIGIT: Record<string, string> = { O: '0', Q: '0', D: '0', I: '1', L: '1', B: '8', S: '5', Z: '2', G: '6', T: '7' };
const TO_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '8': 'B', '5': 'S', '2': 'Z', '6': 'G', '7': 'T', '4': 'A' };
const SWAP_COST = 0.12;
const MAX_SWAPS = 2;

export function normalisePlateText(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

interface Fit { text: string; fit: number }

/** Fits `text` to a template; null when some slot cannot be satisfied. */
export function fitTemplate(text: string, template: string): Fit | null {
  if (text.length !== template.length) return null;
  let out = '';
  let swaps = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const t = template[i]!;
    const isDigit = c >= '0' && c <= '9';
    if (t === 'X' || (t === '9' && isDigit) || (t === 'A' && !isDigit)) out += c;
    else {
      const sub = t === '9' ? TO_DIGIT[c] : TO_LETTER[c];
      if (!sub) return null;
      out += sub;
      // More than two look-alikes means the text is probably not of this format at all.
      if (++swaps > MAX_SWAPS) return null;
    }
  }
  // Specific templates (no X) say more than generic ones, so they fit better.
  const generic = [...template].filter((t) => t === 'X').length / template.length;
  return { text: out, fit: Math.max(0, 1 - swaps * SWAP_COST) * (1 - 0.3 * generic) };
}

function compileFormats(formats: string[] | undefined): RegExp[] {
  const out: RegExp[] = [];
  for (const f of formats ?? []) {
    try {
      out.push(new RegExp(f, 'i'));
    } catch {
      // A client's bad regular expression must not fail the whole request.
    }
  }
  return out;
}

/** Ranks raw OCR readings as plates. Region fit (template match) and character confidence make
 * the score; `regions` add a preference, `strictRegion` filters, `textFormats` boost. */
export function scorePlateCandidates(readings: RawReading[], options: ScoreOptions = {}): PlateCandidate[] {
  const wanted = (options.regions ?? []).map((r) => r.toLowerCase()).filter(Boolean);
  const known = wanted.filter((r) => REGION_TEMPLATES[r] || REGION_TEMPLATES[countryOf(r)]);
  const formats = compileFormats(options.textFormats);
  const allRegions = Object.keys(REGION_TEMPLATES);
  const best = new Map<string, PlateCandidate>();

  for (const reading of readings) {
    const text = normalisePlateText(reading.text);
    if (text.length < 2 || text.length > 10) continue;
    const conf = charConfidence(reading);
    const options_: PlateCandidate[] = [];
    const tryRegions = options.strictRegion ? known : [...known, ...allRegions.filter((r) => !known.includes(r))];
    for (const code of tryRegions) {
      // A state template also counts for its country (`us` asked, a Texas-shaped plate read).
      const preferred = known.some((k) => countryOf(k) === countryOf(code));
      for (const { region, template } of known.includes(code) ? templatesFor(code) : templatesFor(code).filter((t) => t.region === code)) {
        const f = fitTemplate(text, template);
        if (!f) continue;
        // A requested region counts for more than any other region that also fits.
        const regionScore = round(Math.min(1, f.fit * (preferred ? 1 : 0.6)));
        // Without a hint a state cannot be told from the shape alone: report the country.
        const reportCode = known.includes(code) ? code : known.includes(region) ? region : countryOf(region);
        options_.push({ plate: f.text.toLowerCase(), score: 0, region: { code: reportCode, score: regionScore } });
      }
    }
    if (options_.length === 0 && !options.strictRegion) {
      options_.push({ plate: text.toLowerCase(), score: 0, region: { code: wanted[0] ?? 'unknown', score: 0 } });
    }
    for (const c of options_) {
      const formatBoost = formats.length === 0 ? 1 : formats.some((re) => re.test(c.plate)) ? 1.15 : 0.75;
      c.score = round(Math.min(1, conf * (0.55 + 0.45 * c.region.score) * formatBoost));
    }
    // One interpretation per reading: other templates' swaps are guesses, not evidence.
    const top = options_.sort((a, b) => b.score - a.score || b.region.score - a.region.score)[0];
    if (top) {
      const c = top;
      const prev = best.get(c.plate);
      if (!prev || c.score > prev.score || (c.score === prev.score && c.region.score > prev.region.score)) best.set(c.plate, c);
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score || b.region.score - a.region.score);
}

function charConfidence(r: RawReading): number {
  const base = clamp01(r.confidence);
  const cc = r.charConfidences?.filter((v) => Number.isFinite(v));
  if (!cc || cc.length === 0) return base;
  // The weakest character bounds how sure the whole plate can be.
  const mean = cc.reduce((s, v) => s + clamp01(v), 0) / cc.length;
  const min = Math.min(...cc.map(clamp01));
  return clamp01(0.5 * base + 0.3 * mean + 0.2 * min);
}

function clamp01(v: number): number {
  return Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0;
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
