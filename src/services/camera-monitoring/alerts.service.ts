import { alertFor, statusLabel, type LogStatus } from '../../domain/camera-status.js';
import type { AccountRepository } from '../../storage/repositories/account.repository.js';
import type { AlertCameraRow, AlertFilter, AlertRepository, AlertRow } from '../../storage/repositories/alert.repository.js';
import type { CameraRow } from '../../storage/repositories/camera.repository.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { ImageService } from '../images.service.js';
import type { Mailer, WebhookNotifier } from '../notifications/ports.js';

export interface CameraChange {
  camera: CameraRow;
  status: LogStatus;
  anomalies: Record<string, number>;
  snapshotImageId: number | null;
}

/** Raises alerts on status changes, groups changes of one license within a window into one
 * alert, and sends each alert by webhook and e-mail when its window closes. */
export class AlertService {
  constructor(
    private readonly alerts: AlertRepository,
    private readonly accounts: AccountRepository,
    private readonly images: ImageService,
    private readonly transaction: UnitOfWork,
    private readonly notify: { webhooks: WebhookNotifier; mail: Mailer } | undefined,
    private readonly options: { groupWindowSeconds: number },
  ) {}

  /** Records the change in an alert when it is one that users hear about. The alert, its camera
   * and its dispatch job are written in one transaction: a crash between them would leave an
   * alert that is never sent (a re-run analysis finds the status already alerted). */
  async consider(change: CameraChange, now = Date.now()): Promise<number | undefined> {
    const { camera, status } = change;
    return this.transaction(async ({ alerts, cameras, jobs }) => {
      const last = (await alerts.lastAlertedStatus(camera.id)) as LogStatus | null;
      if (!alertFor(last, status)) return undefined;
      const windowClosesAt = now + this.options.groupWindowSeconds * 1000;
      const open = await alerts.findOpen(camera.license_id, now);
      const alert = open ?? (await alerts.create({ accountId: camera.account_id, licenseId: camera.license_id, windowClosesAt }, now));
      const tags = await cameras.tagsOf([camera.id]);
      await alerts.addCamera({
        alert_id: alert.id, camera_id: camera.id, serial: camera.serial, name: camera.name, status,
        anomalies: JSON.stringify(change.anomalies), tags: JSON.stringify(tags.get(camera.id) ?? []),
        snapshot_image_id: change.snapshotImageId, reference_image_id: camera.reference_image_id, created_at: now,
      });
      // Enqueued last: without a grouping window the job is due at once, and a runner must find
      // the alert with its camera (it is woken only after the commit, or finds it on a poll).
      if (!open) await jobs.enqueue('alert.dispatch', { alertId: alert.id }, { runAt: windowClosesAt });
      return alert.id;
    });
  }

  /** Sends the alert once (idempotent: a re-run job does not send twice). */
  async dispatch(alertId: number): Promise<void> {
    if (!(await this.alerts.markDispatched(alertId))) return;
    const alert = await this.alerts.findById(alertId);
    if (!alert || !this.notify) return;
    const account = await this.accounts.findById(alert.account_id);
    const rows = (await this.alerts.camerasOf([alertId])).get(alertId) ?? [];
    if (!account || rows.length === 0) return;
    const payload = await this.webhookPayload(alert, account.email, rows);
    const ref = { kind: 'alert' as const, id: alertId };
    await this.notify.webhooks.notify(account.id, 'camera-monitoring', 'camera.alert', payload, { ref });
    await this.notify.mail.enqueue(alertEmail(alert, payload), ref);
  }

  async markSent(alertId: number): Promise<void> {
    await this.alerts.markSent(alertId);
  }

  async list(licenseId: number, filter: AlertFilter) {
    const alerts = await this.alerts.list(licenseId, filter);
    const cameras = await this.alerts.camerasOf(alerts.map((a) => a.id));
    const withUrls = await this.withUrls(alerts.flatMap((a) => cameras.get(a.id) ?? []));
    return alerts.map((a) => ({ alert: a, cameras: withUrls.filter((c) => c.row.alert_id === a.id) }));
  }

  /** The rows with their snapshot and reference URLs (one image query for all of them). */
  private async withUrls(rows: readonly AlertCameraRow[]) {
    const urls = await this.images.urlsOfIds(rows.flatMap((c) => [c.snapshot_image_id, c.reference_image_id]));
    return rows.map((row, i) => ({ row, snapshot: urls[2 * i] ?? null, referenceImage: urls[2 * i + 1] ?? null }));
  }

  /** The camera monitoring webhook body of compatibility.md. */
  private async webhookPayload(alert: AlertRow, email: string, rows: AlertCameraRow[]) {
    const cameras = await this.withUrls(rows);
    return {
      license: alert.license_code,
      user: email,
      anomaly: statusLabel(rows[0]!.status as LogStatus),
      cameras: cameras.map(({ row, snapshot, referenceImage }) => ({
        serial: row.serial,
        name: row.name,
        anomaly: statusLabel(row.status as LogStatus),
        anomalies: JSON.parse(row.anomalies) as Record<string, number>,
        tags: JSON.parse(row.tags) as string[],
        reference_image: referenceImage,
        latest_image: snapshot,
      })),
    };
  }
}

type AlertPayload = Awaited<ReturnType<AlertService['webhookPayload']>>;

function alertEmail(alert: AlertRow, payload: AlertPayload & { user: string }) {
  const lines = payload.cameras.map((c) => {
    const scores = Object.entries(c.anomalies).map(([k, v]) => `${k} ${v}`).join(', ');
    return `- ${c.name} (${c.serial}): ${c.anomaly}${scores ? ` — ${scores}` : ''}${c.latest_image ? `\n  latest image: ${c.latest_image}` : ''}`;
  });
  const subject = payload.cameras.length === 1
    ? `[Vigil] ${payload.cameras[0]!.name}: ${payload.cameras[0]!.anomaly}`
    : `[Vigil] ${payload.cameras.length} cameras changed status on license ${alert.license_code}`;
  return { to: payload.user, subject, text: `License ${alert.license_code}\n\n${lines.join('\n')}\n` };
}
