import { jwtVerify, type JWTPayload } from 'jose';
import type { JwtKeys } from '../jwt-keys';

/** The roles a token may carry; PostgREST switches to exactly these. */
export const apiRoles = ['anon', 'authenticated', 'service_role'] as const;
export type ApiRole = (typeof apiRoles)[number];

export interface VerifiedClaims extends JWTPayload {
  role: ApiRole;
  sub?: string;
  session_id?: string;
  email?: string;
}

export class InvalidJwtError extends Error {}

function isApiRole(role: unknown): role is ApiRole {
  return typeof role === 'string' && (apiRoles as readonly string[]).includes(role);
}

/**
 * Verification with a small cache: the same token arrives on every request of a session, and verifying it
 * again costs more than the rest of a short REST call. Expiry is re-checked on each hit.
 */
export function createJwtVerifier(keys: JwtKeys) {
  const cache = new Map<string, VerifiedClaims>();
  const cacheLimit = 1000;

  async function verifyWith({ key, algorithms }: JwtKeys['auth'], token: string): Promise<JWTPayload> {
    try {
      return (await jwtVerify(token, key, { algorithms })).payload;
    } catch (error) {
      throw new InvalidJwtError(error instanceof Error ? error.message : 'invalid JWT');
    }
  }

  /** The claims of a token as GoTrue verifies it, whatever its role (its admin endpoints). */
  function verifySignature(token: string): Promise<JWTPayload> {
    return verifyWith(keys.auth, token);
  }

  async function verify(token: string): Promise<VerifiedClaims> {
    const cached = cache.get(token);
    const now = Math.floor(Date.now() / 1000);
    if (cached) {
      if (cached.exp === undefined || cached.exp > now) return cached;
      cache.delete(token);
      throw new InvalidJwtError('JWT expired');
    }
    const payload = await verifyWith(keys.services, token);
    if (!isApiRole(payload.role)) throw new InvalidJwtError(`unknown role ${String(payload.role)}`);
    const claims = payload as VerifiedClaims;
    if (cache.size >= cacheLimit) cache.clear();
    cache.set(token, claims);
    return claims;
  }

  return { verify, verifySignature, sign: keys.sign, publicJwks: keys.publicJwks };
}

export type JwtVerifier = ReturnType<typeof createJwtVerifier>;
