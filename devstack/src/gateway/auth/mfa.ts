import { randomUUID } from 'node:crypto';
import { uuidPattern, type AuthContext, type SessionCaller as Caller } from './context';
import { mfaErrors } from './mfa-errors';
import {
  completeVerification,
  currentFactors,
  findChallenge,
  findFactor,
  removeFactor,
  sessionIsAal2,
} from './mfa-store';
import { qrCodeSvg } from './qr-code';
import { readJsonObject, type JsonObject } from './request-body';
import type { AuthRoute } from './route';
import { tokenResponse } from './sessions';
import { newTotpSecret, totpStepOf, totpUri } from './totp';

/**
 * GoTrue's multi-factor API for TOTP (api/mfa.go): enrol a factor, challenge it, verify a code (the
 * session moves to `aal2` and `amr` gains `totp`), unenrol it.
 */
export interface MfaSettings {
  /** `[auth.mfa] max_enrolled_factors`: factors a person may have, verified or not. */
  maxEnrolledFactors: number;
  /** `[auth.mfa.totp] enroll_enabled` and `verify_enabled`. */
  totpEnrollEnabled: boolean;
  totpVerifyEnabled: boolean;
}

/** GoTrue's `MFA_MAX_VERIFIED_FACTORS` default. */
const maxVerifiedFactors = 10;
/** GoTrue's `MFA_CHALLENGE_EXPIRY_DURATION` and `MFA_FACTOR_EXPIRY_DURATION`. */
const challengeExpirySeconds = 300;
const unverifiedFactorExpirySeconds = 300;

function textField(body: JsonObject, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value : '';
}

export function mfaRoutes(context: AuthContext): AuthRoute[] {
  const { pool, jwt, sessionSettings, project } = context;
  const settings: MfaSettings = {
    maxEnrolledFactors: project.mfaMaxEnrolledFactors,
    totpEnrollEnabled: project.mfaTotpEnrollEnabled,
    totpVerifyEnabled: project.mfaTotpVerifyEnabled,
  };
  /** The TOTP issuer when the caller names none: the site URL's host, as GoTrue. */
  const defaultIssuer = new URL(project.siteUrl).host;
  /**
   * Each factor's step of the last code accepted. Kept by this gateway only: a code accepted just before
   * a restart of the local stack could be used once more within its minute and a half.
   */
  const lastAcceptedStep = new Map<string, number>();

  async function ownFactor(caller: Caller, factorId: string) {
    if (!uuidPattern.test(factorId)) throw mfaErrors.factorIdNotUuid();
    const factor = await findFactor(pool, factorId, caller.user.id);
    if (!factor) throw mfaErrors.factorNotFound();
    return factor;
  }

  /** POST /factors (`validateFactors` then `enrollTOTPFactor`). */
  async function enrol(caller: Caller, body: JsonObject) {
    const factorType = textField(body, 'factor_type');
    if (factorType === 'phone' || factorType === 'webauthn')
      throw mfaErrors.unsupportedFactorType(factorType);
    if (factorType !== 'totp') throw mfaErrors.otherFactorType();
    if (!settings.totpEnrollEnabled) throw mfaErrors.enrolDisabled();
    const friendlyName = textField(body, 'friendly_name');
    const issuer = textField(body, 'issuer') || defaultIssuer;

    const factors = await currentFactors(pool, caller.user.id, unverifiedFactorExpirySeconds);
    if (factors.some((factor) => (factor.friendly_name ?? '') === friendlyName))
      throw mfaErrors.nameConflict(friendlyName);
    const verified = factors.filter((factor) => factor.status === 'verified').length;
    if (factors.length >= settings.maxEnrolledFactors || verified >= maxVerifiedFactors)
      throw mfaErrors.tooManyFactors();
    if (verified > 0 && !(await sessionIsAal2(pool, caller.sessionId))) throw mfaErrors.aal2ToEnrol();

    const secret = newTotpSecret();
    const uri = totpUri(secret, issuer, caller.user.email);
    const factorId = randomUUID();
    await pool.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
       values ($1, $2, $3, 'totp', 'unverified', now(), now(), $4)`,
      [factorId, caller.user.id, friendlyName, secret],
    );
    return {
      id: factorId,
      type: 'totp',
      friendly_name: friendlyName,
      // A bare SVG, as GoTrue sends it; supabase-js turns it into a data URL.
      totp: { qr_code: await qrCodeSvg(uri), secret, uri },
    };
  }

  /** POST /factors/{id}/challenge: a challenge tied to the caller's address, valid for a few minutes. */
  async function challenge(caller: Caller, factorId: string, address: string) {
    const factor = await ownFactor(caller, factorId);
    if (!settings.totpVerifyEnabled) throw mfaErrors.verifyDisabled();
    const challengeId = randomUUID();
    const { rows } = await pool.query<{ expires_at: number }>(
      `with challenge as (
         insert into auth.mfa_challenges (id, factor_id, created_at, ip_address) values ($1, $2, now(), $3::inet)
         returning created_at
       )
       select floor(extract(epoch from created_at + make_interval(secs => $4)))::int as expires_at
       from challenge`,
      [challengeId, factor.id, address, challengeExpirySeconds],
    );
    return { id: challengeId, type: 'totp', expires_at: rows[0]?.expires_at };
  }

  /** POST /factors/{id}/verify: the code of a live challenge from the same address. */
  async function verify(caller: Caller, factorId: string, body: JsonObject, address: string) {
    const factor = await ownFactor(caller, factorId);
    const code = textField(body, 'code');
    if (code === '') throw mfaErrors.emptyCode();
    if (!settings.totpVerifyEnabled) throw mfaErrors.verifyDisabled();
    const challengeId = textField(body, 'challenge_id');
    if (!uuidPattern.test(challengeId)) throw mfaErrors.challengeNotFound();
    const found = await findChallenge(pool, challengeId, factor.id, address, challengeExpirySeconds);
    if (!found) throw mfaErrors.challengeNotFound();
    if (found.verified || !found.same_address) throw mfaErrors.challengeUsedOrElsewhere();
    if (found.expired) {
      await pool.query('delete from auth.mfa_challenges where id = $1', [challengeId]);
      throw mfaErrors.challengeExpired(challengeId);
    }
    // A wrong code uses up its challenge (a retry needs a new one), with GoTrue's answer for a wrong code.
    // So does a code of a step no later than the last one accepted for this factor: RFC 6238 §5.2 forbids
    // accepting a code twice (hosted GoTrue has no such check; ours answers as for a wrong code). Marked
    // before any await, so two verifications of one code at once cannot both pass.
    const step = totpStepOf(factor.secret, code);
    if (step === undefined || step <= (lastAcceptedStep.get(factor.id) ?? -Infinity)) {
      await pool.query('delete from auth.mfa_challenges where id = $1', [challengeId]);
      throw mfaErrors.wrongCode();
    }
    lastAcceptedStep.set(factor.id, step);
    const { user, amr, refreshToken } = await completeVerification(pool, {
      challengeId,
      factorId: factor.id,
      sessionId: caller.sessionId,
      userId: caller.user.id,
    });
    if (!user) throw mfaErrors.factorNotFound();
    return tokenResponse(jwt, sessionSettings, user, caller.sessionId, refreshToken, amr);
  }

  /** DELETE /factors/{id}: a verified factor only from an `aal2` session. */
  async function unenrol(caller: Caller, factorId: string) {
    const factor = await ownFactor(caller, factorId);
    if (factor.status === 'verified' && !(await sessionIsAal2(pool, caller.sessionId)))
      throw mfaErrors.aal2ToUnenrol();
    await removeFactor(pool, factor.id);
    return { id: factor.id };
  }

  return [
    {
      method: 'POST',
      path: '/factors',
      handle: async ({ request }) =>
        enrol(await context.authenticatedInSession(request), await readJsonObject(request)),
    },
    {
      method: 'POST',
      path: /^\/factors\/([^/]+)\/challenge$/,
      handle: async ({ request, params: [factorId = ''] }) => {
        const caller = await context.authenticatedInSession(request);
        context.limit(context.limiters.mfaChallenge, request);
        return challenge(caller, factorId, context.clientAddress(request));
      },
    },
    {
      method: 'POST',
      path: /^\/factors\/([^/]+)\/verify$/,
      handle: async ({ request, params: [factorId = ''] }) => {
        const caller = await context.authenticatedInSession(request);
        context.limit(context.limiters.mfaVerify, request);
        return verify(caller, factorId, await readJsonObject(request), context.clientAddress(request));
      },
    },
    {
      method: 'DELETE',
      path: /^\/factors\/([^/]+)$/,
      handle: async ({ request, params: [factorId = ''] }) =>
        unenrol(await context.authenticatedInSession(request), factorId),
    },
  ];
}
