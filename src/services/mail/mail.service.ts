import nodemailer, { type Transporter } from 'nodemailer';
import type { JobHandlerDefinition, JobPayload, JobQueue } from '../../queue/jobs.js';
import type { Metrics } from '../metrics.js';
import type { DeliveryRef, Mailer, MailMessage, OnDelivered } from '../notifications/ports.js';

/** What a `mail.send` job carries (queue/jobs.ts). */
export type MailSendPayload = JobPayload<'mail.send'>;

export interface MailServiceOptions {
  /** `config.mail.smtpUrl`; mail is off without it. */
  smtpUrl: string | undefined;
  from: string;
  queue: JobQueue;
  onDelivered: OnDelivered;
  metrics?: Metrics;
  /** Attempts per message; with the runner's backoff 10 attempts span about 17 minutes. */
  maxAttempts?: number;
}

const DEFAULT_MAX_ATTEMPTS = 10;

/** Sends e-mail through SMTP from background jobs: a slow or absent mail server never delays a
 * request, and a message survives a restart. */
export class MailService implements Mailer {
  readonly enabled: boolean;
  private transport: Transporter | undefined;
  private readonly maxAttempts: number;

  constructor(private readonly options: MailServiceOptions) {
    this.enabled = Boolean(options.smtpUrl);
    this.maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  }

  async enqueue(message: MailMessage, ref?: DeliveryRef): Promise<boolean> {
    if (!this.enabled) return false;
    const payload: MailSendPayload = ref ? { message, ref } : { message };
    await this.options.queue.enqueue('mail.send', payload, { maxAttempts: this.maxAttempts });
    return true;
  }

  /** Sends now (the job handler, and the CLI when it wants a synchronous answer). */
  async send(message: MailMessage): Promise<void> {
    const transport = this.transportOrThrow();
    await transport.sendMail({ from: this.options.from, to: message.to, subject: message.subject, text: message.text, ...(message.html ? { html: message.html } : {}) });
  }

  /** The `mail.send` job handler. A failure throws so the runner retries with backoff. */
  handler(): JobHandlerDefinition<'mail.send'> {
    return {
      maxAttempts: this.maxAttempts,
      run: async (p) => {
        // Enqueued while mail was configured, run by a process where it is not: nothing to do.
        if (!this.enabled) return;
        try {
          await this.send(p.message);
        } catch (err) {
          this.options.metrics?.delivery('mail', 'failed');
          throw err;
        }
        this.options.metrics?.delivery('mail', 'delivered');
        if (p.ref) await this.options.onDelivered(p.ref);
      },
    };
  }

  close(): void {
    this.transport?.close();
    this.transport = undefined;
  }

  private transportOrThrow(): Transporter {
    if (!this.options.smtpUrl) throw new Error('Mail is not configured (SMTP_URL is unset).');
    // Short timeouts: a stuck server fails the attempt and the job retries later.
    this.transport ??= nodemailer.createTransport({ url: this.options.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
    return this.transport;
  }
}
