import { describe, expect, it } from 'vitest';
import { alertFor, statusLabel, type LogStatus } from './camera-status.js';

describe('statusLabel', () => {
  it.each([
    ['anomaly', 'Anomaly'], ['offline', 'Offline'], ['normal', 'Normal'], ['under_review', 'Under review'], ['config_issue', 'Config issue'],
  ] as const)('%s → %s', (status, label) => expect(statusLabel(status)).toBe(label));
});

describe('alertFor(lastAlerted, next)', () => {
  it.each<[LogStatus | null, LogStatus, boolean]>([
    [null, 'normal', false],
    [null, 'anomaly', true],
    [null, 'offline', true],
    ['anomaly', 'anomaly', false],
    ['anomaly', 'offline', true],
    ['offline', 'anomaly', true],
    ['anomaly', 'normal', true],
    ['offline', 'normal', true],
    ['normal', 'normal', false],
    ['normal', 'anomaly', true],
    ['anomaly', 'under_review', false],
    ['anomaly', 'pending_retry', false],
    [null, 'config_issue', false],
  ])('%s then %s → %s', (last, next, expected) => expect(alertFor(last, next)).toBe(expected));
});
