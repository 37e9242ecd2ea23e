import { createHash, randomBytes } from 'node:crypto';
import type { AccountRepository, AccountRow } from '../../storage/repositories/account.repository.js';
import type { LoginLinkRepository } from '../../storage/repositories/login-link.repository.js';
import { errors } from '../errors.js';
import type { Mailer } from '../notifications/ports.js';
import type { RateLimiter } from '../rate-limiter.js';

/** How long an e-mailed link works. */
export const LOGIN_LINK_TTL_MS = 15 * 60_000;
/** Link requests per client address per minute (answered with a 429 past it). */
const REQUESTS_PER_ADDRESS = 10;
/** E-mails per address per quarter hour: past it the request is answered as usual but nothing is
 * sent, so nobody can flood an inbox and the answer still says nothing about the account. */
const MAILS_PER_EMAIL = 3;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Sign-in by e-mail: a single-use, short-lived link. Only the token's SHA-256 is stored, the
 * link is deleted when used, and asking for one answers the same whether the account exists. */
export class LoginLinkService {
  constructor(
    private readonly links: LoginLinkRepository,
    private readonly accounts: Pick<AccountRepository, 'findByEmail' | 'findById'>,
    private readonly mailer: Mailer,
    private readonly limiter: RateLimiter,
    private readonly options: { publicUrl: string; ttlMs?: number },
  ) {}

  get enabled(): boolean {
    return this.mailer.enabled;
  }

  /** Queues the e-mail when the account exists; resolves alike when it does not. `next` is the
   * dashboard path the link returns to (already checked to be a local path). */
  async request(email: string, clientAddress: string, now = Date.now(), next = '/'): Promise<void> {
    if (!this.enabled) throw errors.notFound('Sign-in links need e-mail: the server has no SMTP_URL.', 'mail_disabled');
    const wait = await this.limiter.hit(`dashboard-link:ip:${clientAddress}`, REQUESTS_PER_ADDRESS, 60_000, now);
    if (wait > 0) throw errors.rateLimited('Too many sign-in link requests. Wait a minute and try again.', wait / 1000, 'login_throttled');
    const normalized = email.trim().toLowerCase();
    if (normalized.length === 0 || normalized.length > 320) return;
    if ((await this.limiter.hit(`dashboard-link:email:${normalized}`, MAILS_PER_EMAIL, 15 * 60_000, now)) > 0) return;
    // Looked up and queued after answering, so the answer takes as long for an unknown address.
    void this.send(normalized, now, next).catch((err) => console.error('[vigil] sign-in link failed:', err instanceof Error ? err.message : err));
  }

  private async send(email: string, now: number, next: string): Promise<void> {
    const account = await this.accounts.findByEmail(email);
    if (!account) return;
    const token = randomBytes(32).toString('base64url');
    const ttlMs = this.options.ttlMs ?? LOGIN_LINK_TTL_MS;
    await this.links.create({ id: sha256(token), account_id: account.id, created_at: now, expires_at: now + ttlMs });
    if (Math.random() < 0.05) await this.links.purgeExpired(now);
    const url = `${this.options.publicUrl}/login/link?token=${token}${next === '/' ? '' : `&next=${encodeURIComponent(next)}`}`;
    const minutes = Math.round(ttlMs / 60_000);
    await this.mailer.enqueue({
      to: account.email,
      subject: 'Your Vigil sign-in link',
      text: `Open this link to sign in to the Vigil dashboard as ${account.email}:\n\n${url}\n\nIt works once, for ${minutes} minutes. If you did not ask for it, ignore this e-mail.\n`,
    });
  }

  /** The link's account, consuming the link; undefined when it is unknown, used or expired. */
  async consume(token: string | undefined, now = Date.now()): Promise<AccountRow | undefined> {
    if (!token || token.length > 100) return undefined;
    const accountId = await this.links.consume(sha256(token), now);
    return accountId === undefined ? undefined : this.accounts.findById(accountId);
  }
}
