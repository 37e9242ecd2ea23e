import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED')],
    ['connection reset', withCode('ECONNRESET')],
    ['PostgreSQL shutting down (57P01)', withCode('57P01')],
    ['PostgreSQL starting up (57P03)', withCode('57P03')],
    ['PostgreSQL connection exception class 08', withCode('08006')],
    ['too many connections', withCode('53300')],
    ['node-postgres losing its socket', new Error('Connection terminated unexpectedly')],
    ['node-postgres connect timeout', new Error('timeout exceeded when trying to connect')],
    ['node-postgres query timeout (partition mid-query)', new Error('Query read timeout')],
    ['SQLite busy', withCode('SQLITE_BUSY', 'database is locked')],
    ['SQLite locked table', withCode('SQLITE_LOCKED')],
    ['wrapped in a cause', new Error('query failed', { cause: withCode('ECONNREFUSED') })],
  ])('%s', (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    ['SQLite constraint', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
    ['undefined', undefined],
  ])('not %s', (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
