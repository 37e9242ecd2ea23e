/** Camera and log statuses of the camera monitoring spec, and which changes raise an alert. */

export const LOG_STATUSES = ['normal', 'anomaly', 'under_review', 'offline', 'config_issue', 'pending_retry'] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];

/** Values accepted by the `status` filters: the log statuses plus `no_data` (no log yet). */
export const STATUS_FILTERS = [...LOG_STATUSES, 'no_data'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** Display label used in alerts and webhooks: `Anomaly`, `Offline`, `Normal`, `Under review`... */
export function statusLabel(status: LogStatus): string {
  const words = status.split('_');
  return [words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1), ...words.slice(1)].join(' ');
}

const TROUBLE: ReadonlySet<string> = new Set<LogStatus>(['anomaly', 'offline']);

/** An alert is raised when a camera enters `anomaly` or `offline`, or returns to `normal` after
 * one of them. Intermediate statuses (under_review, pending_retry, config_issue) neither raise
 * nor clear: `lastAlerted` is the status of the camera's last alert, so a camera going
 * anomaly → under_review → normal still reports its recovery. */
export function alertFor(lastAlerted: LogStatus | null, next: LogStatus): boolean {
  if (TROUBLE.has(next)) return lastAlerted !== next;
  if (next === 'normal') return lastAlerted !== null && TROUBLE.has(lastAlerted);
  return false;
}
