import { type CharOption, scaledOptions, topProb } from './plate-scoring.js';

/** A character this much less sure in the brightest channel than as photographed faded there. */
const FADED_RATIO = 0.5;
/** ... while the other characters held at least this much of their confidence (on a plate with
 * coloured characters every character fades, and none of them is an emblem). */
const HELD_RATIO = 0.8;

/** Plate characters are dark in every channel; an emblem between character groups (a peach, an
 * orange, a state shape) is bright in one, so in the brightest-channel look it fades while the
 * characters do not. Where the two looks read the same number of characters and exactly such a
 * lone character faded, its confidence in the first look drops to the faded one: the reading
 * without it becomes the likelier (see expandReading). Other looks are returned unchanged. */
export function fadeColouredGlyphs(views: readonly CharOption[][][]): CharOption[][][] {
  const [photo, bright] = views;
  if (!photo || !bright || photo.length !== bright.length || photo.length < 3) return [...views];
  const ratios = photo.map((c, i) => topProb(bright[i]!) / Math.max(1e-6, topProb(c)));
  const faded = ratios.map((r, i) => r < FADED_RATIO && topProb(photo[i]!) >= 0.5 ? i : -1).filter((i) => i >= 0);
  if (faded.length !== 1) return [...views];
  const held = ratios.filter((_, i) => !faded.includes(i));
  if (held.some((r) => r < HELD_RATIO)) return [...views];
  const i = faded[0]!;
  const scale = ratios[i]!;
  const dimmed = photo.map((c, k) => (k === i ? scaledOptions(c, scale) : c));
  return [dimmed, ...views.slice(1)];
}

/** Both looks saw a character there at least this surely (under it, the reading without it is
 * a hypothesis too: see expandReading). */
const SEEN = 0.6;

/** Plate characters are dark in every channel, so the brightest channel shows them as the photo
 * does, minus coloured artwork that crosses them (a red sun behind an F reads as E's bar).
 * Where the two looks read the same number of characters and agree on all but one, which both
 * saw surely enough (SEEN) and the brightest channel read about as surely (HELD_RATIO) as the
 * photo, the photo's character there becomes the brightest channel's. Other looks are returned
 * unchanged. */
export function readThroughArtwork(views: readonly CharOption[][][]): CharOption[][][] {
  const [photo, bright] = views;
  if (!photo || !bright || photo.length !== bright.length || photo.length < 3) return [...views];
  const differ = photo.map((c, i) => (c[0]?.char !== bright[i]![0]?.char ? i : -1)).filter((i) => i >= 0);
  if (differ.length !== 1) return [...views];
  const i = differ[0]!;
  const [p, b] = [topProb(photo[i]!), topProb(bright[i]!)];
  if (p < SEEN || b < SEEN || b < HELD_RATIO * p) return [...views];
  const held = photo.every((c, k) => k === i || topProb(bright[k]!) >= HELD_RATIO * topProb(c));
  if (!held) return [...views];
  return [photo.map((c, k) => (k === i ? bright[i]! : c)), ...views.slice(1)];
}
