/** An error a caller can act on: a stable machine code, an HTTP status and a human message.
 * Services throw these; the HTTP layer renders them in each API family's error shape. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const errors = {
  badRequest: (message: string, code = 'bad_request') => new AppError(400, code, message),
  unauthorized: (message = 'Invalid or missing API token.') => new AppError(401, 'unauthorized', message),
  forbidden: (message: string, code = 'forbidden') => new AppError(403, code, message),
  notFound: (message: string, code = 'not_found') => new AppError(404, code, message),
  conflict: (message: string, code = 'conflict') => new AppError(409, code, message),
  payloadTooLarge: (limitBytes: number) =>
    new AppError(413, 'payload_too_large', `The upload is larger than the ${formatBytes(limitBytes)} limit.`),
  rateLimited: (message: string, retryAfterSeconds: number, code = 'rate_limited') =>
    new AppError(429, code, message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) }),
  unavailable: (message: string, code = 'unavailable') => new AppError(503, code, message),
};

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n} bytes`;
}
