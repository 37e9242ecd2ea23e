/** Anomaly keys exactly as the camera monitoring spec writes them ("Position change" has a space). */
export const ANOMALY_KEYS = ['Blur', 'Obstruction', 'Glare', 'Position change'] as const;
export type AnomalyKey = (typeof ANOMALY_KEYS)[number];
export type AnomalyScores = Record<AnomalyKey, number>;

export interface Thresholds {
  Blur: number;
  Obstruction: number;
  Glare: number;
  'Position change': number;
}

/** PROVISIONAL: not yet chosen from measurement (the accuracy bench is not written yet).
 * Scores are 0..1; 0.5 is the midpoint until bench/camera-accuracy.ts gives real figures. */
export const DEFAULT_THRESHOLDS: Readonly<Thresholds> = Object.freeze({
  Blur: 0.5,
  Obstruction: 0.5,
  Glare: 0.5,
  'Position change': 0.5,
});

/** Scores in [threshold - band, threshold) go to manual review instead of raising an alert. */
export const DEFAULT_REVIEW_BAND = 0.1;

export type HealthStatus = 'normal' | 'anomaly' | 'under_review';

export interface Classification {
  status: HealthStatus;
  anomalies: Partial<AnomalyScores>;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Status and the anomalies map a log stores: only keys at or above their threshold. */
export function classifyScores(
  scores: AnomalyScores,
  thresholds: Thresholds = DEFAULT_THRESHOLDS,
  reviewBand: number = DEFAULT_REVIEW_BAND,
): Classification {
  const anomalies: Partial<AnomalyScores> = {};
  let review = false;
  for (const key of ANOMALY_KEYS) {
    const score = round3(Math.min(1, Math.max(0, scores[key])));
    const t = thresholds[key];
    if (score >= t) anomalies[key] = score;
    else if (score >= t - reviewBand) review = true;
  }
  if (Object.keys(anomalies).length > 0) return { status: 'anomaly', anomalies };
  return { status: review ? 'under_review' : 'normal', anomalies };
}

/** Temporary vs persistent obstruction: an Obstruction flag counts only when the `confirmations - 1`
 * most recent earlier logs (`previousCovered`, newest first) were covered too. Until then the flag is
 * held back and the log goes to `under_review` (unless another anomaly stands), so a truck or a
 * hand passing once does not alert. confirmations <= 1 disables the hold. */
export function confirmObstruction(
  classified: Classification,
  previousCovered: readonly boolean[],
  confirmations: number,
): Classification {
  if (classified.anomalies.Obstruction === undefined || confirmations <= 1) return classified;
  const needed = confirmations - 1;
  const confirmed = previousCovered.length >= needed && previousCovered.slice(0, needed).every(Boolean);
  if (confirmed) return classified;
  const { Obstruction: _held, ...rest } = classified.anomalies;
  return { status: Object.keys(rest).length > 0 ? 'anomaly' : 'under_review', anomalies: rest };
}
