import { statusLabel, type LogStatus } from '../../../domain/camera-status.js';
import type { AlertService } from '../../../services/camera-monitoring/alerts.service.js';
import type { CameraLogRow } from '../../../storage/repositories/camera-log.repository.js';
import type { CameraRow, CameraWithTags } from '../../../storage/repositories/camera.repository.js';
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

export function presentCamera(c: CameraWithTags) {
  return {
    id: c.id,
    serial: c.serial,
    name: c.name,
    license: c.license_code,
    tags: c.tags,
    notes: c.notes,
    latest_status: c.latest_status,
    created: isoTime(c.created_at),
    modified: isoTime(c.modified_at),
  };
}

export function presentLog(log: CameraLogRow, camera: Pick<CameraRow, 'serial' | 'name'>, snapshot: string | null) {
  return {
    id: log.id,
    camera_serial: camera.serial,
    camera_name: camera.name,
    status: log.status,
    anomalies: JSON.parse(log.anomalies) as Record<string, number>,
    snapshot,
    created: isoTime(log.created_at),
  };
}

export function presentAlert(entry: Awaited<ReturnType<AlertService['list']>>[number]) {
  return {
    id: entry.alert.id,
    license: entry.alert.license_code,
    sent: entry.alert.sent === 1,
    cameras: entry.cameras.map(({ row, snapshot, referenceImage }) => ({
      serial: row.serial,
      name: row.name,
      status: statusLabel(row.status as LogStatus),
      anomalies: JSON.parse(row.anomalies) as Record<string, number>,
      snapshot,
      reference_image: referenceImage,
    })),
    created: isoTime(entry.alert.created_at),
  };
}
