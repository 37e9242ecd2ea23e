import { NETWORK_ERROR_CODES } from '../network-errors.js';

/** Whether an error means the database cannot answer right now (connection refused or lost,
 * server shutting down or starting, SQLite file locked by another writer). The same request
 * may succeed in a moment, so it is answered 503 with Retry-After, not 500. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = String((e as { code?: unknown }).code ?? '');
    if (NETWORK_ERROR_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08')) return true;
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && PG_CONNECTION_MESSAGES.some((m) => message.startsWith(m))) return true;
  }
  return false;
}

/** PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections (class
 * 08, connection_exception, is matched by prefix). */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** What node-postgres throws, without a code, when its socket goes away. */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
  // query_timeout: a connection that stopped answering mid-query.
  'Query read timeout',
];
