import type { UsageFamily } from '../../domain/usage.js';
import type { AccountRow } from '../../storage/repositories/account.repository.js';
import { errors } from '../errors.js';
import type { ImageService } from '../images.service.js';
import type { WebhookNotifier } from '../notifications/ports.js';
import type { UsageService } from '../usage.service.js';
import type { Metrics } from '../metrics.js';
import { countedRecognition } from './counted-call.js';
import type { OcrType, TextReading, TextRecognizer } from '../../vision/ocr/ocr.types.js';

/** Types whose results carry no orientation (spec: absent for these). */
const WITHOUT_ORIENTATION: ReadonlySet<OcrType> = new Set(['odometer', 'shipping_container', 'boat_reg_number']);

export interface RecognitionCall {
  type: OcrType;
  family: Extract<UsageFamily, 'ocr' | 'vin' | 'trailer-id'>;
  image: Buffer;
  filename: string | undefined;
  cameraId: string | undefined;
  timestamp: string | undefined;
  /** The trailer endpoint answers without confidence. */
  withConfidence: boolean;
}

/** The spec's Recognition result. */
export interface RecognitionResult {
  processing_time: number;
  results: Array<{
    identifier: {
      type: 'text';
      props: { code: Array<{ value: string }>; orientation?: Array<{ value: string }>; confidence?: number };
      label?: string;
    };
  }>;
  filename: string;
  version: number;
  camera_id: string | null;
  timestamp: string;
}

export const RESULT_VERSION = 1;

/** Text recognition use case: feature and quota checks, reading, the result shape, webhooks. */
export class OcrService {
  constructor(
    private readonly recognizer: TextRecognizer,
    private readonly usage: UsageService,
    private readonly images: ImageService,
    private readonly webhooks: WebhookNotifier,
    private readonly options: { maxPixels: number; metrics?: Metrics },
  ) {}

  async read(account: AccountRow, call: RecognitionCall): Promise<RecognitionResult> {
    return (await this.readWithBoxes(account, call)).result;
  }

  /** The same call, also returning the readings with where they were found (the dashboard
   * draws them over the image). */
  async readWithBoxes(account: AccountRow, call: RecognitionCall): Promise<{ result: RecognitionResult; readings: TextReading[] }> {
    if (!account.features.includes('ocr')) throw errors.forbidden('OCR is not enabled for this account.', 'feature_disabled');
    const { value: readings, ms } = await countedRecognition(
      this.usage,
      { accountId: account.id, family: call.family, image: call.image, maxPixels: this.options.maxPixels },
      () => this.recognizer.read(call.type, call.image),
      this.options.metrics,
    );
    const result = present(call, readings, ms);
    if (call.family === 'ocr') await this.notify(account.id, call.image, result);
    return { result, readings };
  }

  /** Posts the result to the account's OCR webhooks with `file_url`, storing the image only
   * when somebody will fetch it. */
  private async notify(accountId: number, image: Buffer, result: RecognitionResult) {
    if (!(await this.webhooks.hasActive(accountId, 'ocr'))) return;
    const stored = await this.images.store(accountId, image, `accounts/${accountId}/ocr`);
    await this.webhooks.notify(accountId, 'ocr', 'image.done', { ...result, file_url: this.images.url(stored.publicId) });
  }
}

/** The spec's Recognition result for one image. */
export function present(call: Omit<RecognitionCall, 'image'>, readings: TextReading[], ms: number): RecognitionResult {
  return {
    processing_time: ms,
    results: readings.map((r) => ({
      identifier: {
        type: 'text',
        props: {
          code: [{ value: r.value }],
          ...(WITHOUT_ORIENTATION.has(call.type) ? {} : { orientation: [{ value: r.orientation }] }),
          ...(call.withConfidence ? { confidence: Math.round(r.confidence * 1000) / 1000 } : {}),
        },
        ...(call.type === 'shipping_container' && r.label ? { label: r.label } : {}),
      },
    })),
    filename: call.filename ?? 'upload',
    version: RESULT_VERSION,
    camera_id: call.cameraId ?? null,
    timestamp: call.timestamp ?? new Date().toISOString(),
  };
}
