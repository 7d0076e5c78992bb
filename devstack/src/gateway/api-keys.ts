import type { IncomingMessage } from 'node:http';
import { bearerToken, headerValue } from './http';
import { InvalidJwtError, type JwtVerifier, type VerifiedClaims } from './jwt';

/** A refused key or token, answered with its status and body as Supabase's gateway answers it. */
export class KeyError extends Error {
  constructor(
    readonly body: Record<string, unknown>,
    readonly status = 401,
  ) {
    super(String(body.message));
  }
}

/** The checks Supabase's API gateway and PostgREST make on the `apikey` and the bearer token. */
export function createKeyChecks({
  jwt,
  functionsWithoutJwt,
}: {
  jwt: JwtVerifier;
  /** `[functions.<name>] verify_jwt = false` in config.toml. */
  functionsWithoutJwt: ReadonlySet<string>;
}) {
  /** Supabase's API gateway: the `apikey` must be one of this project's keys. */
  async function checkApiKey(request: IncomingMessage, requestUrl: URL): Promise<VerifiedClaims> {
    const apiKey = headerValue(request, 'apikey') ?? requestUrl.searchParams.get('apikey');
    if (!apiKey)
      throw new KeyError({
        message: 'No API key found in request',
        hint: 'No `apikey` request header or url param was found.',
      });
    try {
      const claims = await jwt.verify(apiKey);
      if (claims.role === 'anon' || claims.role === 'service_role') return claims;
    } catch (error) {
      if (!(error instanceof InvalidJwtError)) throw error;
    }
    throw new KeyError({
      message: 'Invalid API key',
      hint: 'Double check your Supabase `anon` or `service_role` API key.',
    });
  }

  /** PostgREST's caller: the bearer JWT when present (it must verify), else the API key's role. */
  async function restClaims(request: IncomingMessage, apiKeyClaims: VerifiedClaims): Promise<VerifiedClaims> {
    const token = bearerToken(request);
    if (!token) return apiKeyClaims;
    try {
      return await jwt.verify(token);
    } catch (error) {
      if (!(error instanceof InvalidJwtError)) throw error;
      const expired = /exp/i.test(error.message);
      throw new KeyError({
        code: expired ? 'PGRST303' : 'PGRST301',
        message: expired ? 'JWT expired' : `JWT could not be verified: ${error.message}`,
        details: null,
        hint: null,
      });
    }
  }

  /** Supabase's functions gateway: with `verify_jwt` the bearer token must be a valid JWT of this project. */
  async function checkFunctionJwt(request: IncomingMessage, name: string) {
    if (functionsWithoutJwt.has(name)) return;
    const token = bearerToken(request);
    if (!token)
      throw new KeyError({ code: 'UNAUTHORIZED_NO_AUTH_HEADER', message: 'Missing authorization header' });
    try {
      await jwt.verify(token);
    } catch (error) {
      if (!(error instanceof InvalidJwtError)) throw error;
      throw new KeyError({ code: 'UNAUTHORIZED_INVALID_JWT', message: `Invalid JWT: ${error.message}` });
    }
  }

  return { checkApiKey, restClaims, checkFunctionJwt };
}

export type KeyChecks = ReturnType<typeof createKeyChecks>;
