import { FEATURES, type Feature } from '../domain/features.js';
import type { AccountRepository, AccountRow } from '../storage/repositories/account.repository.js';
import { errors } from './errors.js';
import type { ImageService } from './images.service.js';
import type { TokenService } from './tokens.service.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export class AccountService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly tokens: TokenService,
    private readonly images: ImageService,
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

  /** Deletes the account, everything it owns and every image it stored (bytes included). The
   * rows go first, in one statement: should deleting the bytes fail, nothing points at them. */
  async remove(email: string): Promise<{ id: number; images: number }> {
    const account = await this.requireByEmail(email);
    const images = await this.images.ofAccount(account.id);
    await this.accounts.delete(account.id);
    await this.images.remove(images);
    return { id: account.id, images: images.length };
  }

  async requireByEmail(email: string): Promise<AccountRow> {
    const account = await this.accounts.findByEmail(email);
    if (!account) throw errors.notFound(`No account with e-mail ${email}.`, 'account_not_found');
    return account;
  }
}
