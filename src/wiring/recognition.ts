import type { Config } from '../config/config.js';
import type { ImageService } from '../services/images.service.js';
import type { Metrics } from '../services/metrics.js';
import type { EventPublisher, Mailer, WebhookNotifier } from '../services/notifications/ports.js';
import { OcrService } from '../services/recognition/ocr.service.js';
import { PlateHistoryService } from '../services/recognition/plate-history.service.js';
import { PlateService } from '../services/recognition/plate.service.js';
import { WatchlistService } from '../services/recognition/watchlist.service.js';
import type { UnitOfWork } from '../services/unit-of-work.js';
import type { UsageService } from '../services/usage.service.js';
import type { Db } from '../storage/db/database.js';
import type { AccountRepository, AccountRow } from '../storage/repositories/account.repository.js';
import { PlateReadRepository } from '../storage/repositories/plate-read.repository.js';
import { PlateVisitRepository } from '../storage/repositories/plate-visit.repository.js';
import { WatchlistRepository } from '../storage/repositories/watchlist.repository.js';
import type { TextRecognizer } from '../vision/ocr/ocr.types.js';
import type { PlateReader } from '../vision/plates/plate.types.js';
import { RecognitionWorkers } from '../vision/runtime/recognition.pool.js';

export interface Recognition {
  ocr: OcrService;
  plates: PlateService;
  /** Every plate read, searchable. */
  history: PlateHistoryService;
  /** Named lists of plates reads are checked against. */
  watchlists: WatchlistService;
  /** The account every on-premise call acts as (created on first use). */
  onpremAccount(): Promise<AccountRow>;
  /** Stops the engines' worker threads. */
  close(): Promise<void>;
}

export interface RecognitionDeps {
  config: Pick<Config, 'workers' | 'vision' | 'images' | 'onprem' | 'plateHistory'>;
  db: Db;
  transaction: UnitOfWork;
  usage: UsageService;
  images: ImageService;
  webhooks: WebhookNotifier;
  mailer: Mailer;
  events: EventPublisher;
  accounts: AccountRepository;
  metrics: Metrics;
  /** Engines tests put in place of the worker pools. */
  recognizer?: TextRecognizer;
  plateReader?: PlateReader;
}

/** Text and plate recognition: the engines on worker threads and the services in front of them. */
export function wireRecognition(d: RecognitionDeps): Recognition {
  const options = { maxPixels: d.config.images.maxPixels, metrics: d.metrics };
  // One pool for both: its threads load the OCR engine once for plates and text alike.
  const workers = d.recognizer && d.plateReader ? undefined : new RecognitionWorkers(d.config.workers.threads, d.config.vision);
  const recognizer = d.recognizer ?? workers!.text;
  const plateReader = d.plateReader ?? workers!.plates;
  let onprem: Promise<AccountRow> | undefined;
  const history = new PlateHistoryService(new PlateReadRepository(d.db), new PlateVisitRepository(d.db), d.transaction, d.images, { webhooks: d.webhooks, events: d.events }, d.config.plateHistory);
  const watchlists = new WatchlistService(new WatchlistRepository(d.db), d.transaction);
  return {
    ocr: new OcrService(recognizer, d.usage, d.images, d.webhooks, options),
    plates: new PlateService(plateReader, d.usage, d.images, { webhooks: d.webhooks, mailer: d.mailer, events: d.events }, history, watchlists, options),
    history,
    watchlists,
    onpremAccount: () => (onprem ??= ensureOnpremAccount(d.accounts, d.usage, d.config.onprem.maxCalls)),
    close: async () => void (await workers?.close()),
  };
}

/** On-premise calls have no token: they all count against one local account, whose monthly
 * allowance is MAX_CALLS (0: no limit). Its plate-reader webhooks are the installation's. */
export const ONPREM_EMAIL = 'onprem@localhost';

async function ensureOnpremAccount(accounts: AccountRepository, usage: UsageService, maxCalls: number): Promise<AccountRow> {
  const account = (await accounts.findByEmail(ONPREM_EMAIL)) ?? (await accounts.create(ONPREM_EMAIL, ['plate-reader']).catch(async () => (await accounts.findByEmail(ONPREM_EMAIL))!));
  await usage.setTotalCalls(account.id, 'plate-reader', maxCalls > 0 ? maxCalls : 2_147_483_647);
  return account;
}
