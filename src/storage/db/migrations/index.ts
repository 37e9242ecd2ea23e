import type { Migration } from 'kysely';
import * as foundation from './001-foundation.js';
import * as cameraMonitoring from './002-camera-monitoring.js';
import * as webhooks from './003-webhooks.js';
import * as usage from './005-usage.js';
import * as dashboard from './006-dashboard.js';
import * as webhookFormat from './007-webhook-format.js';
import * as loginLinks from './008-login-links.js';
import * as plateReads from './009-plate-reads.js';
import * as plateKeyCameras from './010-plate-key-cameras.js';

/** Versioned migrations, applied in key order. Append; never edit a released one. */
export const migrations: Record<string, Migration> = {
  '001-foundation': foundation,
  '002-camera-monitoring': cameraMonitoring,
  '003-webhooks': webhooks,
  '005-usage': usage,
  '006-dashboard': dashboard,
  '007-webhook-format': webhookFormat,
  '008-login-links': loginLinks,
  '009-plate-reads': plateReads,
  '010-plate-key-cameras': plateKeyCameras,
};
