import { jwtVerify, SignJWT, type JWTPayload } from 'jose';

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
 * HS256 verification with a small cache: the same token arrives on every request of a session, and
 * verifying it again costs more than the rest of a short REST call. Expiry is re-checked on each hit.
 */
export function createJwtVerifier(secret: string) {
  const key = new TextEncoder().encode(secret);
  const cache = new Map<string, VerifiedClaims>();
  const cacheLimit = 1000;

  /** The claims of a token signed with the project's secret, whatever its role (GoTrue's admin endpoints). */
  async function verifySignature(token: string): Promise<JWTPayload> {
    try {
      return (await jwtVerify(token, key, { algorithms: ['HS256'] })).payload;
    } catch (error) {
      throw new InvalidJwtError(error instanceof Error ? error.message : 'invalid JWT');
    }
  }

  async function verify(token: string): Promise<VerifiedClaims> {
    const cached = cache.get(token);
    const now = Math.floor(Date.now() / 1000);
    if (cached) {
      if (cached.exp === undefined || cached.exp > now) return cached;
      cache.delete(token);
      throw new InvalidJwtError('JWT expired');
    }
    const payload = await verifySignature(token);
    if (!isApiRole(payload.role)) throw new InvalidJwtError(`unknown role ${String(payload.role)}`);
    const claims = payload as VerifiedClaims;
    if (cache.size >= cacheLimit) cache.clear();
    cache.set(token, claims);
    return claims;
  }

  async function sign(claims: JWTPayload, expiresAt: number): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(expiresAt)
      .sign(key);
  }

  return { verify, verifySignature, sign };
}

export type JwtVerifier = ReturnType<typeof createJwtVerifier>;
