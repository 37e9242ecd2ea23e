import { describe, expect, it } from 'vitest';
import { classifyScores, confirmObstruction, type AnomalyScores } from './camera-health.js';

const s = (b: number, o: number, g: number, p: number): AnomalyScores =>
  ({ Blur: b, Obstruction: o, Glare: g, 'Position change': p });

describe('classifyScores', () => {
  it.each([
    ['all low', s(0, 0.1, 0.2, 0.3), 'normal', {}],
    ['one at threshold', s(0.5, 0, 0, 0), 'anomaly', { Blur: 0.5 }],
    ['two above, rounded', s(0.91234, 0, 0, 0.77777), 'anomaly', { Blur: 0.912, 'Position change': 0.778 }],
    ['in review band', s(0, 0.45, 0, 0), 'under_review', {}],
    ['anomaly wins over review', s(0.45, 0.6, 0, 0), 'anomaly', { Obstruction: 0.6 }],
  ])('%s', (_n, scores, status, anomalies) => {
    expect(classifyScores(scores)).toEqual({ status, anomalies });
  });

  it('uses per-camera thresholds', () => {
    const t = { Blur: 0.9, Obstruction: 0.9, Glare: 0.2, 'Position change': 0.9 };
    expect(classifyScores(s(0.6, 0, 0.3, 0), t, 0)).toEqual({ status: 'anomaly', anomalies: { Glare: 0.3 } });
  });
});

describe('confirmObstruction', () => {
  const covered = classifyScores(s(0, 0.9, 0, 0));
  it.each([
    ['first covered log is held', [], 2, 'under_review', {}],
    ['confirmed by previous', [true], 2, 'anomaly', { Obstruction: 0.9 }],
    ['previous not covered', [false, true], 2, 'under_review', {}],
    ['hold disabled', [], 1, 'anomaly', { Obstruction: 0.9 }],
  ])('%s', (_n, prev, n, status, anomalies) => {
    expect(confirmObstruction(covered, prev, n)).toEqual({ status, anomalies });
  });
  it('keeps other anomalies when obstruction is held', () => {
    expect(confirmObstruction(classifyScores(s(0.8, 0.9, 0, 0)), [], 2)).toEqual({ status: 'anomaly', anomalies: { Blur: 0.8 } });
  });
});
