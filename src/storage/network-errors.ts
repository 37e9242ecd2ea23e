/** Node's error codes for a peer that cannot be reached right now (refused, reset, timed out,
 * no route, DNS failing for the moment): the same call may succeed in a moment. */
export const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
