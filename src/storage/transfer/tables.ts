/** Every table of the schema in an order where each table comes after the tables it refers
 * to, with the column that orders it for paging (its id where it has one). Export and import
 * walk this list; a test checks it names every table the migrations create. */
export const TABLES: ReadonlyArray<{ name: string; key: string | null }> = [
  { name: 'accounts', key: 'id' },
  { name: 'api_tokens', key: 'id' },
  { name: 'sessions', key: null },
  { name: 'login_links', key: null },
  { name: 'licenses', key: 'id' },
  { name: 'images', key: 'id' },
  { name: 'settings', key: null },
  { name: 'cameras', key: 'id' },
  { name: 'tags', key: 'id' },
  { name: 'camera_tags', key: null },
  { name: 'camera_logs', key: 'id' },
  { name: 'reference_images', key: 'id' },
  { name: 'alerts', key: 'id' },
  { name: 'alert_cameras', key: 'id' },
  { name: 'jobs', key: 'id' },
  { name: 'webhooks', key: 'id' },
  { name: 'webhook_deliveries', key: 'id' },
  { name: 'usage_counters', key: null },
  { name: 'quotas', key: null },
  { name: 'plate_visits', key: 'id' },
  { name: 'plate_reads', key: 'id' },
  { name: 'plate_read_keys', key: null },
  { name: 'watchlists', key: 'id' },
  { name: 'watchlist_plates', key: null },
];
