import { describe, expect, it } from 'vitest';
import { classifyScores, confirmObstruction, type AnomalyScores } from './camera-health.js';

const s = (b: number, o: number, g: number, p: number): AnomalyScores => ({ Blur: b, Obstruction: o, Glare: g, 'Position change': p });

describe('classifyScores', () => {
  it.each([
    [s(0.1, 0.1, 0.1, 0.1), 'normal', {}],
    [s(0.45, 0.1, 0.1, 0.1), 'under_review', {}],
    [s(0.5, 0.1, 0.1, 0.1), 'under_review', {}],
    [s(0.501, 0.1, 0.1, 0.1), 'anomaly', { Blur: 0.501 }],
    [s(0.91234, 0.1, 0.7, 0.45), 'anomaly', { Blur: 0.912, Glare: 0.7 }],
  ] as const)('%j → %s', (scores, status, anomalies) => {
    expect(classifyScores(scores)).toEqual({ status, anomalies });
  });

  it('uses per-camera thresholds and review band', () => {
    const t = { Blur: 0.8, Obstruction: 0.5, Glare: 0.5, 'Position change': 0.5 };
    expect(classifyScores(s(0.7, 0, 0, 0), t, 0.05).status).toBe('normal');
    expect(classifyScores(s(0.76, 0, 0, 0), t, 0.05).status).toBe('under_review');
    expect(classifyScores(s(0.81, 0, 0, 0), t, 0.05).anomalies).toEqual({ Blur: 0.81 });
  });

  it('reports only scores exceeding a threshold: equal is under review, and 1 never alerts', () => {
    const t = { Blur: 1, Obstruction: 0.5, Glare: 0.5, 'Position change': 0.5 };
    expect(classifyScores(s(1, 0, 0, 0), t)).toEqual({ status: 'under_review', anomalies: {} });
    expect(classifyScores(s(0, 0.5, 0, 0), t)).toEqual({ status: 'under_review', anomalies: {} });
  });
});

describe('confirmObstruction', () => {
  const cover = { status: 'anomaly' as const, anomalies: { Obstruction: 0.9 } };
  it('holds back a first Obstruction as under_review', () => {
    expect(confirmObstruction(cover, [false], 2)).toEqual({ status: 'under_review', anomalies: {} });
    expect(confirmObstruction(cover, [], 2)).toEqual({ status: 'under_review', anomalies: {} });
  });
  it('confirms an Obstruction seen on the previous upload too', () => {
    expect(confirmObstruction(cover, [true], 2)).toEqual(cover);
    expect(confirmObstruction(cover, [true, false], 3)).toEqual({ status: 'under_review', anomalies: {} });
    expect(confirmObstruction(cover, [true, true], 3)).toEqual(cover);
  });
  it('keeps other anomalies of the same upload, and passes through with confirmations 1', () => {
    expect(confirmObstruction({ status: 'anomaly', anomalies: { Obstruction: 0.9, Glare: 0.6 } }, [false], 2)).toEqual({ status: 'anomaly', anomalies: { Glare: 0.6 } });
    expect(confirmObstruction(cover, [], 1)).toEqual(cover);
  });
});
