/** Why an outbound request was refused or failed. `message` is written for the user: the API
 * returns it in a 400 (upload_url) or records it on a webhook delivery. */
export type OutboundErrorReason =
  | 'invalid_url'
  | 'forbidden_address'
  | 'dns_failure'
  | 'too_many_redirects'
  | 'too_large'
  | 'timeout'
  | 'connection_failed';

export class OutboundError extends Error {
  override name = 'OutboundError';
  constructor(readonly reason: OutboundErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
