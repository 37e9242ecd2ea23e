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
