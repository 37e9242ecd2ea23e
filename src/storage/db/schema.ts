import type { Generated } from 'kysely';

/** Times are epoch milliseconds (integers) in both SQLite and PostgreSQL: one representation,
 * exact range filters, compact indexes. Booleans are 0/1 integers for the same reason. */
type Millis = number;
type Id = Generated<number>;

export interface AccountsTable {
  id: Id;
  email: string;
  /** JSON array of feature names. */
  features: string;
  password_hash: string | null;
  created_at: Millis;
  modified_at: Millis;
}

export interface ApiTokensTable {
  id: Id;
  account_id: number;
  token_hash: string;
  /** First characters of the token, so a user can tell tokens apart without the secret. */
  token_prefix: string;
  created_at: Millis;
  last_used_at: Millis | null;
  revoked_at: Millis | null;
}

export interface LicensesTable {
  id: Id;
  account_id: number;
  code: string;
  size: number;
  va_type: string;
  expiration: Millis;
  created_at: Millis;
  modified_at: Millis;
}

export interface ImagesTable {
  id: Id;
  /** Random id that appears in signed URLs; deleting the row revokes every URL of the image. */
  public_id: string;
  account_id: number;
  blob_key: string;
  content_type: string;
  byte_size: number;
  width: number;
  height: number;
  created_at: Millis;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface Database {
  accounts: AccountsTable;
  api_tokens: ApiTokensTable;
  licenses: LicensesTable;
  images: ImagesTable;
  settings: SettingsTable;
  cameras: CamerasTable;
  tags: TagsTable;
  camera_tags: CameraTagsTable;
  camera_logs: CameraLogsTable;
  reference_images: ReferenceImagesTable;
  alerts: AlertsTable;
  alert_cameras: AlertCamerasTable;
  jobs: JobsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  usage_counters: UsageCountersTable;
  quotas: QuotasTable;
  sessions: SessionsTable;
  login_links: LoginLinksTable;
  plate_visits: PlateVisitsTable;
  watchlists: WatchlistsTable;
  watchlist_plates: WatchlistPlatesTable;
  plate_reads: PlateReadsTable;
  plate_read_keys: PlateReadKeysTable;
}

export interface CamerasTable {
  id: Id;
  account_id: number;
  license_id: number;
  serial: string;
  name: string;
  notes: Generated<string>;
  thresholds: string | null;
  review_band: number | null;
  reference_image_id: number | null;
  latest_status: string | null;
  latest_log_id: number | null;
  last_upload_at: Millis | null;
  created_at: Millis;
  modified_at: Millis;
}

export interface TagsTable {
  id: Id;
  account_id: number;
  name: string;
}

export interface CameraTagsTable {
  camera_id: number;
  tag_id: number;
}

export interface CameraLogsTable {
  id: Id;
  camera_id: number;
  status: string;
  anomalies: string;
  scores: string | null;
  image_id: number | null;
  detail: string | null;
  created_at: Millis;
}

export interface ReferenceImagesTable {
  id: Id;
  camera_id: number;
  image_id: number;
  created_at: Millis;
}

export interface AlertsTable {
  id: Id;
  account_id: number;
  license_id: number;
  sent: Generated<number>;
  window_closes_at: Millis;
  dispatched_at: Millis | null;
  created_at: Millis;
}

export interface AlertCamerasTable {
  id: Id;
  alert_id: number;
  camera_id: number | null;
  serial: string;
  name: string;
  status: string;
  anomalies: string;
  tags: string;
  snapshot_image_id: number | null;
  reference_image_id: number | null;
  created_at: Millis;
}

export interface JobsTable {
  id: Id;
  kind: string;
  payload: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  attempts: Generated<number>;
  max_attempts: number;
  run_at: Millis;
  locked_until: Millis | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: Millis;
  finished_at: Millis | null;
}

export interface WebhooksTable {
  id: Id;
  account_id: number;
  family: string;
  url: string;
  secret: string;
  active: Generated<number>;
  consecutive_failures: Generated<number>;
  created_at: Millis;
  disabled_at: Millis | null;
  /** `json` or `multipart` (see migration 007). */
  payload_format: Generated<string>;
}

export interface WebhookDeliveriesTable {
  id: Id;
  webhook_id: number;
  event: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  succeeded: number;
  created_at: Millis;
}

export interface UsageCountersTable {
  account_id: number;
  family: string;
  /** `YYYY-MM` (UTC). */
  period: string;
  calls: Generated<number>;
}

export interface QuotasTable {
  account_id: number;
  family: string;
  total_calls: number;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the session token held in the cookie. */
  id: string;
  account_id: number;
  csrf_secret: string;
  created_at: Millis;
  expires_at: Millis;
}

export interface LoginLinksTable {
  /** SHA-256 (hex) of the single-use token in an e-mailed sign-in link. */
  id: string;
  account_id: number;
  created_at: Millis;
  expires_at: Millis;
}

export interface PlateReadsTable {
  id: Id;
  account_id: number;
  camera_id: string | null;
  read_at: Millis;
  /** Lower case, as the answer gave it. */
  plate: string;
  score: number;
  dscore: number;
  region: string;
  /** JSON arrays and objects of the answer. */
  candidates: string;
  box: string;
  vehicle: string | null;
  image_id: number | null;
  visit_id: number | null;
  created_at: Millis;
}

export interface PlateVisitsTable {
  id: Id;
  account_id: number;
  camera_id: string | null;
  plate_key: string;
  first_seen: Millis;
  last_seen: Millis;
  reads: number;
  plate: string;
  score: number;
  region: string;
  image_id: number | null;
  created_at: Millis;
}

export interface PlateReadKeysTable {
  read_id: number;
  account_id: number;
  key: string;
  read_at: Millis;
  /** The read's camera (migration 010), so a search at one camera walks that camera's keys only. */
  camera_id: string | null;
}

export interface WatchlistsTable {
  id: Id;
  account_id: number;
  name: string;
  tag: string;
  fuzzy: number;
  created_at: Millis;
}

export interface WatchlistPlatesTable {
  watchlist_id: number;
  account_id: number;
  /** Lower case, letters and digits. */
  plate: string;
  note: string;
}
