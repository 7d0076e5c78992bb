import { errors, jwtVerify, type JWTPayload } from 'jose';
import type { JwtKeys } from '../jwt-keys';

export interface RealtimeClaims extends JWTPayload {
  role: string;
  exp: number;
}

/** A token Realtime refuses, with the message Supabase Realtime gives for it. */
export class TokenError extends Error {}

/**
 * Verifies a token as Supabase Realtime does: against the project's JWT keys (the secret, or the JWKS of
 * its signing keys), `role` and `exp` required, not expired.
 */
export function createTokenVerifier(keys: JwtKeys) {
  const { key, algorithms } = keys.services;
  return async function verifyToken(token: string): Promise<RealtimeClaims> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key, { algorithms }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) {
        const secondsAgo = Math.floor(Date.now() / 1000) - Number(error.payload.exp);
        throw new TokenError(`Token has expired ${secondsAgo} seconds ago`);
      }
      if (error instanceof errors.JWSSignatureVerificationFailed)
        throw new TokenError('Failed to validate JWT signature');
      throw new TokenError('The token provided is not a valid JWT');
    }
    if (typeof payload.role !== 'string' || typeof payload.exp !== 'number') {
      throw new TokenError('Fields `role` and `exp` are required in JWT');
    }
    return payload as RealtimeClaims;
  };
}
