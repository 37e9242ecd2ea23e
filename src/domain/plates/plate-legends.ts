import { BAND_SIGN_COUNTRIES } from './european-plates.js';
import { readingAsWord } from './reading-as-word.js';

/**
 * The words a plate prints besides its number (its legend): the state or province's name, for
 * some states a slogan carried on every standard plate, a European band's country sign, a
 * Brazilian plate's city strip or band. A US or Canadian number is unique
 * only within its state or province, so the legend is what tells two cars with the same number
 * apart; the number's shape alone cannot (ABC1234 is Texan, Ohioan, Georgian, ...).
 */

/** Legend text (letters only, upper case) -> region code. Names of the US states, DC, the
 * Canadian provinces and the Australian states, and slogans printed on standard-issue plates. */
const LEGENDS: Readonly<Record<string, string>> = {
  ALABAMA: 'us-al', ALASKA: 'us-ak', ARIZONA: 'us-az', ARKANSAS: 'us-ar', CALIFORNIA: 'us-ca',
  COLORADO: 'us-co', CONNECTICUT: 'us-ct', DELAWARE: 'us-de', FLORIDA: 'us-fl', GEORGIA: 'us-ga',
  HAWAII: 'us-hi', IDAHO: 'us-id', ILLINOIS: 'us-il', INDIANA: 'us-in', IOWA: 'us-ia',
  KANSAS: 'us-ks', KENTUCKY: 'us-ky', LOUISIANA: 'us-la', MAINE: 'us-me', MARYLAND: 'us-md',
  MASSACHUSETTS: 'us-ma', MICHIGAN: 'us-mi', MINNESOTA: 'us-mn', MISSISSIPPI: 'us-ms',
  MISSOURI: 'us-mo', MONTANA: 'us-mt', NEBRASKA: 'us-ne', NEVADA: 'us-nv', NEWHAMPSHIRE: 'us-nh',
  NEWJERSEY: 'us-nj', NEWMEXICO: 'us-nm', NEWYORK: 'us-ny', NORTHCAROLINA: 'us-nc',
  NORTHDAKOTA: 'us-nd', OHIO: 'us-oh', OKLAHOMA: 'us-ok', OREGON: 'us-or', PENNSYLVANIA: 'us-pa',
  RHODEISLAND: 'us-ri', SOUTHCAROLINA: 'us-sc', SOUTHDAKOTA: 'us-sd', TENNESSEE: 'us-tn',
  TEXAS: 'us-tx', UTAH: 'us-ut', VERMONT: 'us-vt', VIRGINIA: 'us-va', WASHINGTON: 'us-wa',
  WESTVIRGINIA: 'us-wv', WISCONSIN: 'us-wi', WYOMING: 'us-wy',
  WASHINGTONDC: 'us-dc', DISTRICTOFCOLUMBIA: 'us-dc', TAXATIONWITHOUTREPRESENTATION: 'us-dc',
  // The part of a two-word name that stands out on the plate (New Hampshire prints NEW small).
  HAMPSHIRE: 'us-nh',
  // Slogans on the standard plates of states whose name is set in script or small type.
  LIVEFREEORDIE: 'us-nh', LANDOFLINCOLN: 'us-il', SPORTSMANSPARADISE: 'us-la',
  THEVOLUNTEERSTATE: 'us-tn', LIFEELEVATED: 'us-ut', BIRTHPLACEOFAVIATION: 'us-oh',
  FIRSTINFLIGHT: 'us-nc', FAMOUSPOTATOES: 'us-id', GARDENSTATE: 'us-nj', VACATIONLAND: 'us-me',
  GREATFACESGREATPLACES: 'us-sd', GREENMOUNTAINSTATE: 'us-vt', DISCOVERTHESPIRIT: 'us-nd',
  ONTARIO: 'ca-on', QUEBEC: 'ca-qc', BRITISHCOLUMBIA: 'ca-bc', ALBERTA: 'ca-ab',
  MANITOBA: 'ca-mb', SASKATCHEWAN: 'ca-sk', NOVASCOTIA: 'ca-ns', NEWBRUNSWICK: 'ca-nb',
  NEWFOUNDLANDANDLABRADOR: 'ca-nl', PRINCEEDWARDISLAND: 'ca-pe', YUKON: 'ca-yt',
  QUEENSLAND: 'au-qld', VICTORIA: 'au-vic', TASMANIA: 'au-tas', WESTERNAUSTRALIA: 'au-wa',
  SOUTHAUSTRALIA: 'au-sa', NEWSOUTHWALES: 'au-nsw', NORTHERNTERRITORY: 'au-nt',
  // Mercosur plates print the country's name in their blue band.
  BRASIL: 'br',
};

/** The distinguishing sign in the blue band of a European plate (BAND_SIGN_COUNTRIES), read as a
 * line of its own, and Switzerland's CH beside its number. Two and three letters only: outside a
 * band found by its colour, a one-letter sign (D, F, I) is too easily a stray glyph. */
const BAND_SIGNS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(BAND_SIGN_COUNTRIES).filter(([sign]) => sign.length >= 2)),
  CH: 'ch',
};

/** The strip over the number of Brazil's grey plates: the state's two letters, a dash, the city
 * (BA-SALVADOR, MG-MONTES CLAROS, DF·BRASILIA). */
const BRAZIL_STRIP = /^(AC|AL|AP|AM|BA|CE|DF|ES|GO|MA|MT|MS|MG|PA|PB|PR|PE|PI|RJ|RN|RS|RO|RR|SC|SP|SE|TO)\s*[-·.]\s*[A-Z]{3}/;

/** Longest first, so that a name inside a longer one (KANSAS in ARKANSAS, VIRGINIA in WEST
 * VIRGINIA, WASHINGTON in WASHINGTON DC) gives way to it. */
const BY_LENGTH = Object.entries(LEGENDS).sort((a, b) => b[0].length - a[0].length);

/** Edits allowed between a reading and a legend: one per five letters, none below six letters
 * (MAIN is a street, not MAINE misread). Script and small type lose a letter or two, and no two
 * legends are that close. */
const allowedEdits = (legend: string) => (legend.length < 6 ? 0 : Math.floor(legend.length / 5));

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]!;
}

/** The spellings a line may stand for, letters only, upper case: as read (first), and with a
 * lower-case l taken for the capital I it often is in sans-serif type (IOWA read as loWA). */
function spellings(line: string): string[] {
  const plain = line.toUpperCase().replace(/[^A-Z]/g, '');
  const withI = line.replace(/l/g, 'I').toUpperCase().replace(/[^A-Z]/g, '');
  return plain === withI ? [plain] : [plain, withI];
}

/**
 * The region a line of a plate's legend names, or undefined: a European band's sign that is the
 * whole line, a Brazilian strip, a legend the line contains, else the legend it reads as with
 * the fewest edits (see allowedEdits). Text that is not a legend (a dealer's frame, a month
 * sticker) names none.
 */
export function regionFromLegend(line: string): string | undefined {
  const texts = spellings(line);
  const sign = BAND_SIGNS[texts[0]!];
  if (sign) return sign;
  if (BRAZIL_STRIP.test(line.trim().toUpperCase())) return 'br';
  for (const [legend, region] of BY_LENGTH) if (texts.some((t) => t.includes(legend))) return region;
  let best: { region: string; edits: number } | undefined;
  for (const [legend, region] of BY_LENGTH) {
    const allowed = allowedEdits(legend);
    if (allowed === 0) continue;
    for (const t of texts) {
      const edits = fewestEdits(t, legend, allowed);
      if (edits <= allowed && (!best || edits < best.edits)) best = { region, edits };
    }
  }
  return best?.region;
}

/** The fewest edits that turn a stretch of `text` (as long as `legend`, give or take `allowed`)
 * into `legend`: a month sticker or a frame's word read into the same line (AUGCaliformia) does
 * not hide the name. Infinity when the text is too short. */
function fewestEdits(text: string, legend: string, allowed: number): number {
  let fewest = Infinity;
  for (let len = legend.length - allowed; len <= legend.length + allowed; len++) {
    for (let start = 0; start + len <= text.length; start++) fewest = Math.min(fewest, editDistance(text.slice(start, start + len), legend));
  }
  return fewest;
}

/** Legends shorter than this (OHIO, IOWA, UTAH) are left alone by isLegendReading: a short
 * vanity or low number may spell one. */
const MIN_LEGEND_READING = 6;

/**
 * Whether a plate reading is a legend itself (ARIZONA, LIVE FREE OR DIE) rather than a number:
 * the whole reading, O/0 and I/1 alike (the plate reader folds them), is a state's or province's
 * name or slogan, up to the edits regionFromLegend allows. A legend set in the number's size is
 * read as a plate where the number beside it is missed or cut apart; a number that spells its
 * own state's name in full is far rarer.
 */
export function isLegendReading(reading: string): boolean {
  const text = readingAsWord(reading);
  if (!text || text.length < MIN_LEGEND_READING) return false;
  return BY_LENGTH.some(([legend]) => Math.abs(legend.length - text.length) <= allowedEdits(legend) && editDistance(text, legend) <= allowedEdits(legend));
}
