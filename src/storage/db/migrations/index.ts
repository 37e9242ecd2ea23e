import type { Migration } from 'kysely';
import * as foundation from './001-foundation.js';

/** Versioned migrations, applied in key order. Append; never edit a released one. */
export const migrations: Record<string, Migration> = {
  '001-foundation': foundation,
};
