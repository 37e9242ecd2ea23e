/** What the rest of Vigil needs from notifications. Implemented by the webhook and mail
 * services in this folder; alert dispatch, OCR and plate reading depend only on this. */

/** `plate-visits` targets receive `visit.started`, once per car (see plate-history.service.ts),
 * where `plate-reader` targets receive every reading; `plate-watchlist` targets receive
 * `watchlist.match` for reads of a plate on one of the account's watchlists. */
export const WEBHOOK_FAMILIES = ['camera-monitoring', 'ocr', 'plate-reader', 'plate-visits', 'plate-watchlist'] as const;
export type WebhookFamily = (typeof WEBHOOK_FAMILIES)[number];

/** How a target receives events: a JSON body, or (plate-reader targets) a multipart form with
 * a `json` string field and the image as `upload`. */
export const WEBHOOK_FORMATS = ['json', 'multipart'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** What a successful delivery marks as sent (e.g. an alert's `sent` flag). */
export type DeliveryRef = { kind: 'alert'; id: number };

export interface WebhookNotifier {
  /** Whether any active target of the family would receive an event. */
  hasActive(accountId: number, family: WebhookFamily): Promise<boolean>;
  /** Enqueues one delivery job per active target of the family; returns how many. `body` is
   * sent as JSON, or, to targets that asked for `multipart`, as a form with a `json` string
   * field and the stored image `imageId` as `upload`. */
  notify(
    accountId: number,
    family: WebhookFamily,
    event: string,
    body: unknown,
    options?: { ref?: DeliveryRef; imageId?: number },
  ): Promise<number>;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Whether SMTP is configured at all. */
  readonly enabled: boolean;
  /** Enqueues the message; false when mail is disabled. */
  enqueue(message: MailMessage, ref?: DeliveryRef): Promise<boolean>;
}

/** Called after a webhook or e-mail carrying `ref` was delivered. */
export type OnDelivered = (ref: DeliveryRef) => Promise<void>;

/** Something that happened, as message-broker subscribers (MQTT) hear of it. */
export type VigilEvent =
  | {
      kind: 'camera.state';
      camera: { serial: string; name: string };
      status: string;
      /** The camera's status before this one (null: its first). */
      previous: string | null;
      anomalies: Record<string, number>;
      scores: Record<string, number> | null;
      at: number;
    }
  | { kind: 'plate.read'; cameraId: string | null; body: PlateReadEvent }
  | { kind: 'visit.started'; cameraId: string | null; body: unknown }
  | { kind: 'watchlist.match'; tag: string; body: unknown };

/** What a `plate.read` event carries: the reader's answer and, when it was kept, its photo. */
export interface PlateReadEvent {
  camera_id: string | null;
  timestamp: string;
  results: ReadonlyArray<{ plate: string; score: number; region: { code: string }; box: unknown }>;
  file_url: string | null;
}

/** Publishes events to a broker from background jobs (an outbox: an accepted event survives a
 * broker or process restart). */
export interface EventPublisher {
  /** Whether events go anywhere (MQTT_URL set). */
  readonly enabled: boolean;
  publish(accountId: number, event: VigilEvent): Promise<void>;
}

export const NO_EVENTS: EventPublisher = { enabled: false, publish: async () => undefined };
