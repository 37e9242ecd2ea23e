import { createHash, randomBytes } from 'node:crypto';
import type { AccountRepository, AccountRow } from '../storage/repositories/account.repository.js';
import type { TokenRepository } from '../storage/repositories/token.repository.js';
import { errors } from './errors.js';

const TOKEN_PREFIX = 'vgl_';
/** Writing last_used_at on every request would turn reads into writes; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class TokenService {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly accounts: AccountRepository,
  ) {}

  /** Issues a new token for the account. The plain token is returned once and never stored. */
  async issue(accountId: number): Promise<string> {
    const token = TOKEN_PREFIX + randomBytes(24).toString('base64url');
    await this.tokens.create(accountId, hashToken(token), token.slice(0, TOKEN_PREFIX.length + 4));
    return token;
  }

  async issueForEmail(email: string): Promise<string> {
    const account = await this.accounts.findByEmail(email);
    if (!account) throw errors.notFound(`No account with e-mail ${email}.`, 'account_not_found');
    return this.issue(account.id);
  }

  async revoke(token: string): Promise<void> {
    if (!(await this.tokens.revokeByHash(hashToken(token)))) {
      throw errors.notFound('No active token matches.', 'token_not_found');
    }
  }

  /** The account behind a token, or undefined. Comparison happens on the SHA-256 of the
   * presented token through an index lookup, so timing reveals nothing about stored tokens. */
  async authenticate(token: string, now = Date.now()): Promise<AccountRow | undefined> {
    if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return undefined;
    const owner = await this.tokens.findActiveByHash(hashToken(token));
    if (!owner) return undefined;
    if (owner.lastUsedAt === null || now - owner.lastUsedAt > TOUCH_INTERVAL_MS) await this.tokens.touch(owner.tokenId, now);
    return this.accounts.findById(owner.accountId);
  }
}
