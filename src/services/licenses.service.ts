import { randomBytes } from 'node:crypto';
import type { LicenseRepository, LicenseRow } from '../storage/repositories/license.repository.js';
import { errors } from './errors.js';
import type { ImageService } from './images.service.js';

/** The spec only says va_type values are short lower-case names of integration kinds. */
const VA_TYPE = /^[a-z][a-z0-9_-]{0,31}$/;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function newLicenseCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]);
  return `VA-${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

export class LicenseService {
  constructor(
    private readonly licenses: LicenseRepository,
    private readonly images: ImageService,
  ) {}

  async create(input: { accountId: number; size: number; expiration: Date; vaType?: string }): Promise<LicenseRow> {
    const vaType = input.vaType ?? 'api';
    if (!Number.isInteger(input.size) || input.size < 1) throw errors.badRequest('size must be a positive integer.', 'invalid_size');
    if (!VA_TYPE.test(vaType)) throw errors.badRequest('va_type must be a short lower-case name.', 'invalid_va_type');
    if (Number.isNaN(input.expiration.getTime())) throw errors.badRequest('expiration is not a date.', 'invalid_expiration');
    return this.licenses.create({ accountId: input.accountId, code: newLicenseCode(), size: input.size, vaType, expiration: input.expiration.getTime() });
  }

  list(accountId: number): Promise<LicenseRow[]> {
    return this.licenses.listForAccount(accountId);
  }

  /** Deletes a license of the account with its cameras, their logs and every image they stored
   * (bytes included); rows first, as AccountService.remove. */
  async remove(accountId: number, licenseId: number): Promise<{ images: number }> {
    await this.requireOwned(accountId, licenseId);
    const images = await this.licenses.imagesOf(licenseId);
    await this.licenses.delete(licenseId);
    await this.images.remove(images);
    return { images: images.length };
  }

  /** A license of the caller: another account's is 403, a missing one 404 (spec, Authentication 5). */
  async requireOwned(accountId: number, licenseId: number): Promise<LicenseRow> {
    const license = await this.licenses.findById(licenseId);
    if (!license) throw errors.notFound('License not found.', 'license_not_found');
    if (license.account_id !== accountId) throw errors.forbidden('This license does not belong to you.', 'not_owner');
    return license;
  }
}
