import { FEATURES, type Feature } from '../domain/features.js';
import type { AccountRepository, AccountRow } from '../storage/repositories/account.repository.js';
import { errors } from './errors.js';
import type { TokenService } from './tokens.service.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export class AccountService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly tokens: TokenService,
  ) {}

  /** Creates an account with its first API token. */
  async create(email: string, features: Feature[] = [...FEATURES]): Promise<{ account: AccountRow; token: string }> {
    if (!EMAIL.test(email)) throw errors.badRequest(`Not an e-mail address: ${email}`, 'invalid_email');
    if (await this.accounts.findByEmail(email)) throw errors.conflict(`An account with e-mail ${email} already exists.`, 'account_exists');
    const account = await this.accounts.create(email, features);
    const token = await this.tokens.issue(account.id);
    return { account, token };
  }

  list(): Promise<AccountRow[]> {
    return this.accounts.list();
  }

  async requireByEmail(email: string): Promise<AccountRow> {
    const account = await this.accounts.findByEmail(email);
    if (!account) throw errors.notFound(`No account with e-mail ${email}.`, 'account_not_found');
    return account;
  }
}
