import type { ColumnType, Generated } from 'kysely';

/** Times are epoch milliseconds (integers) in both SQLite and PostgreSQL: one representation,
 * exact range filters, compact indexes. Booleans are 0/1 integers for the same reason. */
type Millis = number;
type Id = Generated<number>;

export interface AccountsTable {
  id: Id;
  email: string;
  /** JSON array of feature names. */
  features: string;
  password_hash: string | null;
  created_at: Millis;
  modified_at: Millis;
}

export interface ApiTokensTable {
  id: Id;
  account_id: number;
  token_hash: string;
  /** First characters of the token, so a user can tell tokens apart without the secret. */
  token_prefix: string;
  created_at: Millis;
  last_used_at: Millis | null;
  revoked_at: Millis | null;
}

export interface LicensesTable {
  id: Id;
  account_id: number;
  code: string;
  size: number;
  va_type: string;
  expiration: Millis;
  created_at: Millis;
  modified_at: Millis;
}

export interface ImagesTable {
  id: Id;
  /** Random id that appears in signed URLs; deleting the row revokes every URL of the image. */
  public_id: string;
  account_id: number;
  blob_key: string;
  content_type: string;
  byte_size: number;
  width: number;
  height: number;
  created_at: Millis;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface Database {
  accounts: AccountsTable;
  api_tokens: ApiTokensTable;
  licenses: LicensesTable;
  images: ImagesTable;
  settings: SettingsTable;
}

export type Insertable<T> = { [K in keyof T]: T[K] extends ColumnType<infer _S, infer I, infer _U> ? I : T[K] };
