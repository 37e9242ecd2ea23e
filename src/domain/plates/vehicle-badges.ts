import { readingAsWord } from './reading-as-word.js';

/** Makes whose badge sits near the plate, on the car's back or front. The reader looks for every
 * plate in the photo, so it meets these too: a badge is read surely and fits a country's generic
 * format (TOYOTA, SAAB), or, cut short, a part of one (NISS, CHEVROL). */
const MAKES = [
  'ACURA', 'ALFAROMEO', 'AUDI', 'BUICK', 'CADILLAC', 'CHEVROLET', 'CHRYSLER', 'CITROEN', 'DACIA',
  'DODGE', 'FIAT', 'FORD', 'HONDA', 'HYUNDAI', 'INFINITI', 'ISUZU', 'IVECO', 'JAGUAR', 'JEEP',
  'LANCIA', 'LEXUS', 'LINCOLN', 'MAZDA', 'MERCEDES', 'MITSUBISHI', 'NISSAN', 'OPEL', 'PEUGEOT',
  'PONTIAC', 'PORSCHE', 'RENAULT', 'SAAB', 'SCANIA', 'SEAT', 'SKODA', 'SUBARU', 'SUZUKI', 'TESLA',
  'TOYOTA', 'VAUXHALL', 'VOLKSWAGEN', 'VOLVO',
];

/** The shortest part of a make's name that counts as its badge read cut short. */
const MIN_PART = 4;

/** Whether a reading is a make's badge, whole or cut short at its end (O/0 and I/1 alike: the
 * grammars may have turned a badge's O into a 0). */
export function isVehicleBadge(reading: string): boolean {
  const text = readingAsWord(reading);
  if (!text || text.length < MIN_PART) return false;
  return MAKES.some((make) => make.startsWith(text));
}
