import type { LicenseRow } from '../../../storage/repositories/license.repository.js';

/** ISO 8601 UTC with a trailing Z, as the spec requires for every datetime. */
export const isoTime = (millis: number) => new Date(millis).toISOString();

export function presentLicense(l: LicenseRow) {
  return {
    id: l.id,
    code: l.code,
    size: l.size,
    va_type: l.va_type,
    expiration: isoTime(l.expiration),
    created: isoTime(l.created_at),
    modified: isoTime(l.modified_at),
  };
}
