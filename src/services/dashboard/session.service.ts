import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AccountRepository, AccountRow } from '../../storage/repositories/account.repository.js';
import type { SessionRepository } from '../../storage/repositories/dashboard.repository.js';
import { errors } from '../errors.js';
import type { RateLimiter } from '../rate-limiter.js';
import { decoyHash, hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords.js';

export const SESSION_TTL_MS = 12 * 3600_000;
/** Sign-in attempts per minute, per client address and per e-mail. */
const ATTEMPTS_PER_ADDRESS = 20;
const ATTEMPTS_PER_EMAIL = 5;

export interface DashboardSession {
  id: string;
  account: AccountRow;
  csrfToken: string;
  expiresAt: number;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Dashboard sign-in: passwords, sessions (the cookie holds a random token, the database its
 * SHA-256), CSRF tokens per session and sign-in throttling. */
export class SessionService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly accounts: AccountRepository,
    private readonly limiter: RateLimiter,
    private readonly options: { ttlMs: number } = { ttlMs: SESSION_TTL_MS },
  ) {}

  /** Returns the new session's cookie token. A wrong e-mail and a wrong password answer alike. */
  async signIn(email: string, password: string, clientAddress: string, now = Date.now()): Promise<{ token: string; session: DashboardSession }> {
    const ipWait = await this.limiter.hit(`dashboard-login:ip:${clientAddress}`, ATTEMPTS_PER_ADDRESS, 60_000, now);
    const mailWait = await this.limiter.hit(`dashboard-login:email:${email.toLowerCase()}`, ATTEMPTS_PER_EMAIL, 60_000, now);
    const wait = Math.max(ipWait, mailWait);
    if (wait > 0) throw errors.rateLimited('Too many sign-in attempts. Wait a minute and try again.', wait / 1000, 'login_throttled');

    const found = email.length <= 320 ? await this.sessions.passwordHashByEmail(email) : undefined;
    const ok = await verifyPassword(password, found?.hash ?? (await decoyHash()));
    const account = ok && found?.hash ? await this.accounts.findById(found.accountId) : undefined;
    if (!account) throw errors.unauthorized('Wrong e-mail or password.');
    return this.open(account, now);
  }

  /** A new session for an account whose owner proved who they are (password or e-mailed link). */
  async open(account: AccountRow, now = Date.now()): Promise<{ token: string; session: DashboardSession }> {
    const token = randomBytes(32).toString('base64url');
    const row = { id: sha256(token), account_id: account.id, csrf_secret: randomBytes(24).toString('base64url'), created_at: now, expires_at: now + this.options.ttlMs };
    await this.sessions.create(row);
    if (Math.random() < 0.05) await this.sessions.purgeExpired(now);
    return { token, session: { id: row.id, account, csrfToken: row.csrf_secret, expiresAt: row.expires_at } };
  }

  /** The live session behind a cookie token, or undefined (unknown, expired or signed out). */
  async resolve(token: string | undefined, now = Date.now()): Promise<DashboardSession | undefined> {
    if (!token || token.length > 100) return undefined;
    const row = await this.sessions.findLive(sha256(token), now);
    if (!row) return undefined;
    const account = await this.accounts.findById(row.account_id);
    return account && { id: row.id, account, csrfToken: row.csrf_secret, expiresAt: row.expires_at };
  }

  /** Whether a submitted form's token is this session's (constant time). */
  checkCsrf(session: DashboardSession, submitted: string | undefined): boolean {
    if (!submitted) return false;
    const a = Buffer.from(submitted);
    const b = Buffer.from(session.csrfToken);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  async signOut(sessionId: string): Promise<void> {
    await this.sessions.delete(sessionId);
  }

  /** For `vigil accounts set-password`: also signs the account out everywhere. */
  async setPassword(email: string, password: string): Promise<AccountRow> {
    if (password.length < MIN_PASSWORD_LENGTH) throw errors.badRequest(`The password must have at least ${MIN_PASSWORD_LENGTH} characters.`, 'weak_password');
    if (password.length > MAX_PASSWORD_LENGTH) throw errors.badRequest(`The password must have at most ${MAX_PASSWORD_LENGTH} characters.`, 'invalid_password');
    const account = await this.accounts.findByEmail(email);
    if (!account) throw errors.notFound(`No account with e-mail ${email}.`, 'account_not_found');
    await this.sessions.setPasswordHash(account.id, await hashPassword(password));
    await this.sessions.deleteForAccount(account.id);
    return account;
  }
}
