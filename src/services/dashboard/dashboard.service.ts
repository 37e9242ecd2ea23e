import { randomUUID } from 'node:crypto';
import { ANOMALY_KEYS } from '../../domain/camera-health.js';
import type { JobQueue } from '../../queue/jobs.js';
import { USAGE_FAMILIES } from '../../domain/usage.js';
import type { AccountTokenRepository } from '../../storage/repositories/dashboard.repository.js';
import type { CameraLogRow } from '../../storage/repositories/camera-log.repository.js';
import type { CameraRepository, CameraRow, CameraWithTags } from '../../storage/repositories/camera.repository.js';
import type { LicenseRow } from '../../storage/repositories/license.repository.js';
import type { AlertService } from '../camera-monitoring/alerts.service.js';
import type { CamerasService } from '../camera-monitoring/cameras.service.js';
import { errors } from '../errors.js';
import type { ImageService } from '../images.service.js';
import type { LicenseService } from '../licenses.service.js';
import type { TokenService } from '../tokens.service.js';
import type { UsageService } from '../usage.service.js';
import type { WebhookDeliverPayload, WebhookService } from '../webhooks/webhook.service.js';

export type Scores = Partial<Record<(typeof ANOMALY_KEYS)[number], number>>;

export interface CameraCard {
  id: number;
  licenseId: number;
  serial: string;
  name: string;
  tags: string[];
  status: string | null;
  scores: Scores;
  anomalies: Record<string, number>;
  lastUploadAt: number | null;
  logId: number | null;
  /** Public id of the image the card shows (latest snapshot, else the reference). */
  thumbnail: string | null;
}

export interface OverviewFilter {
  status?: string;
  tag?: string;
}

export interface DashboardDeps {
  licenses: LicenseService;
  cameras: CamerasService;
  cameraRepo: CameraRepository;
  images: ImageService;
  alerts: AlertService;
  tokens: TokenService;
  accountTokens: AccountTokenRepository;
  webhooks: WebhookService;
  usage: UsageService;
  queue: JobQueue;
  webhookMaxAttempts: number;
}

const HISTORY = 200;
/** Cards per license on one page: beyond this the filters narrow the grid. */
export const GRID_LIMIT = 300;
const NOT_FOUND = 'Not found.';

/** What the dashboard pages show, always within the signed-in account: another account's
 * license, camera or webhook is "not found", never "forbidden" (existence is not revealed). */
export class DashboardService {
  constructor(private readonly d: DashboardDeps) {}

  /** Each license of the account (most recent first) with the cameras that match (at most
   * GRID_LIMIT as cards; `matched` says how many there are). */
  async overview(accountId: number, filter: OverviewFilter = {}) {
    const licenses = await this.d.licenses.list(accountId);
    return Promise.all(licenses.map(async (license) => {
      let cameras = await this.d.cameras.list(accountId, license.id, { status: filter.status });
      if (filter.tag) cameras = cameras.filter((c) => c.tags.includes(filter.tag!));
      return { license, matched: cameras.length, cameras: await this.cards(cameras.slice(0, GRID_LIMIT)) };
    }));
  }

  /** Every tag used on the account's cameras, for the filter. */
  async tags(accountId: number): Promise<string[]> {
    const all = new Set<string>();
    for (const license of await this.d.licenses.list(accountId)) {
      for (const c of await this.d.cameras.list(accountId, license.id, {})) c.tags.forEach((t) => all.add(t));
    }
    return [...all].sort();
  }

  async ownedLicense(accountId: number, licenseId: number): Promise<LicenseRow> {
    const license = (await this.d.licenses.list(accountId)).find((l) => l.id === licenseId);
    if (!license) throw errors.notFound(NOT_FOUND, 'not_found');
    return license;
  }

  /** The camera page: latest image, reference, thresholds and the log history. */
  async camera(accountId: number, licenseId: number, serial: string) {
    const license = await this.ownedLicense(accountId, licenseId);
    const camera = await this.d.cameras.require(accountId, licenseId, serial);
    const { logs } = await this.d.cameras.logs(accountId, licenseId, serial, { limit: HISTORY, offset: 0 });
    const tags = (await this.d.cameraRepo.tagsOf([camera.id])).get(camera.id) ?? [];
    const snapshots = await this.d.images.urlsOfIds(logs.map((log) => log.image_id));
    const history = logs.map((log, i) => ({ ...logView(log), snapshot: snapshots[i] ?? null }));
    const latest = history.find((l) => l.snapshot !== null) ?? null;
    return {
      license,
      camera: { ...camera, tags },
      thresholds: await this.d.cameras.thresholds(accountId, licenseId, serial),
      reference: await this.d.images.urlOfId(camera.reference_image_id),
      latest,
      history,
    };
  }

  async requireCamera(accountId: number, licenseId: number, serial: string): Promise<CameraRow> {
    await this.ownedLicense(accountId, licenseId);
    return this.d.cameras.require(accountId, licenseId, serial);
  }

  /** Alerts of every license of the account, most recent first. */
  async alerts(accountId: number, limit = 100) {
    const licenses = await this.d.licenses.list(accountId);
    const lists = await Promise.all(licenses.map((l) => this.d.alerts.list(l.id, { limit, offset: 0 })));
    return lists.flat().sort((a, b) => b.alert.created_at - a.alert.created_at || b.alert.id - a.alert.id).slice(0, limit);
  }

  tokens(accountId: number) {
    return this.d.accountTokens.list(accountId);
  }

  createToken(accountId: number): Promise<string> {
    return this.d.tokens.issue(accountId);
  }

  async revokeToken(accountId: number, tokenId: number): Promise<void> {
    if (!(await this.d.accountTokens.revoke(accountId, tokenId))) throw errors.notFound(NOT_FOUND, 'not_found');
  }

  /** Webhook targets with their most recent delivery attempts. */
  async webhooks(accountId: number, deliveries = 10) {
    const hooks = await this.d.webhooks.list(accountId);
    return Promise.all(hooks.map(async (webhook) => ({ webhook, deliveries: await this.d.webhooks.deliveries(accountId, webhook.id, deliveries) })));
  }

  /** Queues one `webhook.test` delivery to this target only, signed and recorded like any other. */
  async sendTestEvent(accountId: number, webhookId: number): Promise<void> {
    const hook = await this.d.webhooks.get(accountId, webhookId);
    if (!hook.active) throw errors.badRequest('The webhook is deactivated: enable it first.', 'webhook_inactive');
    const payload: WebhookDeliverPayload = {
      webhookId: hook.id, deliveryId: randomUUID(), event: 'webhook.test',
      body: { test: true, message: 'A test event sent from the Vigil dashboard.', family: hook.family, sent_at: new Date().toISOString() },
    };
    await this.d.queue.enqueue('webhook.deliver', payload, { maxAttempts: this.d.webhookMaxAttempts });
  }

  /** Calls this month against the allowance, per recognition family. */
  usage(accountId: number) {
    return Promise.all(USAGE_FAMILIES.map(async (family) => {
      const s = await this.d.usage.statistics(accountId, family);
      return { family, calls: s.usage.calls, total: s.total_calls, resetsOn: s.usage.resets_on };
    }));
  }

  private async cards(cameras: CameraWithTags[]): Promise<CameraCard[]> {
    const latest = await this.d.cameras.latestLogs(cameras);
    // The grid shows the newest snapshot; an offline log has none, so fall back to the reference.
    const imageOf = (c: CameraWithTags) => latest.get(c.id)?.image_id ?? c.reference_image_id;
    const publicIds = await this.d.cameraRepo.publicIdsOf(cameras.flatMap((c) => (imageOf(c) === null ? [] : [imageOf(c)!])));
    return cameras.map((c) => {
      const log = latest.get(c.id);
      const view = log ? logView(log) : undefined;
      const publicId = publicIds.get(imageOf(c) ?? -1);
      return {
        id: c.id, licenseId: c.license_id, serial: c.serial, name: c.name, tags: c.tags, status: c.latest_status,
        scores: view?.scores ?? {}, anomalies: view?.anomalies ?? {}, lastUploadAt: c.last_upload_at, logId: log?.id ?? null,
        thumbnail: publicId ?? null,
      };
    });
  }
}

export function logView(log: CameraLogRow) {
  return {
    id: log.id,
    status: log.status,
    anomalies: JSON.parse(log.anomalies) as Record<string, number>,
    scores: (log.scores ? JSON.parse(log.scores) : {}) as Scores,
    detail: log.detail,
    createdAt: log.created_at,
    imageId: log.image_id,
  };
}
