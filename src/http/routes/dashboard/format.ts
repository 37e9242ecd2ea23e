/** Small display helpers shared by the dashboard views. */

export const STATUS_LABELS: Record<string, string> = {
  normal: 'Normal', anomaly: 'Anomaly', under_review: 'Under review', offline: 'Offline',
  config_issue: 'Config issue', pending_retry: 'Pending retry', no_data: 'No data',
};

export const statusClass = (status: string | null) => `status-${status ?? 'no_data'}`;
export const statusLabel = (status: string | null) => STATUS_LABELS[status ?? 'no_data'] ?? status ?? 'No data';

/** `2026-11-21 06:40 UTC`: unambiguous for operators in any time zone. */
export function utc(millis: number | null): string {
  if (millis === null) return 'never';
  return `${new Date(millis).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function score(n: number | undefined): string {
  return n === undefined ? '–' : n.toFixed(2);
}

/** Signed image URLs are absolute (PUBLIC_URL); pages use the path, so they work on whatever
 * host the browser reached. */
export function localImage(url: string | null): string | null {
  if (!url) return null;
  const u = new URL(url);
  return u.pathname + u.search;
}

export function cameraPath(licenseId: number, serial: string): string {
  return `/cameras/${licenseId}/${encodeURIComponent(serial)}`;
}

/** The dashboard's small copy of an image behind a signed URL (`/v1/images/<id>?...`). */
export function thumbnailOf(url: string | null): string | null {
  if (!url) return null;
  const id = /\/v1\/images\/([\w-]+)/.exec(url)?.[1];
  return id ? thumbnailPath(id) : localImage(url);
}

export function thumbnailPath(publicId: string): string {
  return `/thumbnails/${encodeURIComponent(publicId)}`;
}
