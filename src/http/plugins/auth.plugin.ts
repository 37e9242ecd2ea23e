import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AccountRow } from '../../storage/repositories/account.repository.js';
import type { TokenService } from '../../services/tokens.service.js';
import { errors } from '../../services/errors.js';
import type { Feature } from '../../domain/features.js';

declare module 'fastify' {
  interface FastifyRequest {
    account: AccountRow | null;
  }
  interface FastifyInstance {
    /** onRequest hook: 401 unless `Authorization: Token <token>` names an active token. */
    requireAccount: (request: FastifyRequest) => Promise<void>;
  }
}

const SCHEME = /^Token\s+(\S+)\s*$/i;

/** The token an `Authorization` header carries, whatever the case of `Token` and the spaces. */
function tokenOf(request: FastifyRequest): string | undefined {
  return SCHEME.exec(request.headers.authorization ?? '')?.[1];
}

/** A rate-limit key for `kind` per token: one token is one bucket however its header is
 * written (`token X`, `TOKEN  X`), and the key holds no secret (a hash). */
export function tokenRateKey(kind: string, request: FastifyRequest): string {
  return `${kind}:${createHash('sha256').update(tokenOf(request) ?? '').digest('hex')}`;
}

export const authPlugin = fp(async (app: FastifyInstance, opts: { tokens: TokenService }) => {
  app.decorateRequest('account', null);
  app.decorate('requireAccount', async (request: FastifyRequest) => {
    const token = tokenOf(request);
    const account = token ? await opts.tokens.authenticate(token) : undefined;
    if (!account) throw errors.unauthorized();
    request.account = account;
  });
});

/** The authenticated account; only valid on routes behind requireAccount. */
export function accountOf(request: FastifyRequest): AccountRow {
  if (!request.account) throw errors.unauthorized();
  return request.account;
}

export function requireFeature(account: AccountRow, feature: Feature, message: string): void {
  if (!account.features.includes(feature)) throw errors.forbidden(message, 'feature_disabled');
}
