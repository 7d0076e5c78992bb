import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import QRCode from 'qrcode';
import { inTransaction } from '../database';
import type { JwtVerifier } from '../jwt';
import { AuthError } from './errors';
import { sessionAmr, tokenResponse, type SessionSettings } from './sessions';
import { newTotpSecret, totpCodeMatches, totpUri } from './totp';
import { findUserById, type UserRow } from './users';

/**
 * GoTrue's multi-factor API for TOTP (api/mfa.go, models/factor.go, models/challenge.go): enrol a factor,
 * challenge it, verify a code (the session moves to `aal2` and `amr` gains `totp`), unenrol it.
 */
export interface MfaSettings {
  /** `[auth.mfa] max_enrolled_factors`: factors a person may have, verified or not. */
  maxEnrolledFactors: number;
  /** `[auth.mfa.totp] enroll_enabled` and `verify_enabled`. */
  totpEnrollEnabled: boolean;
  totpVerifyEnabled: boolean;
  /** GoTrue's `MFA_CHALLENGE_EXPIRY_DURATION` and `MFA_FACTOR_EXPIRY_DURATION` (300 s each). */
  challengeExpirySeconds: number;
  unverifiedFactorExpirySeconds: number;
}

/** GoTrue's `MFA_MAX_VERIFIED_FACTORS` default. */
const maxVerifiedFactors = 10;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const mfaErrors = {
  factorNotFound: () => new AuthError(404, 'mfa_factor_not_found', 'Factor not found'),
  factorIdNotUuid: () => new AuthError(404, 'validation_failed', 'factor_id must be an UUID'),
  nameConflict: (name: string) =>
    new AuthError(
      422,
      'mfa_factor_name_conflict',
      `A factor with the friendly name ${JSON.stringify(name)} for this user already exists`,
    ),
  tooManyFactors: () =>
    new AuthError(
      422,
      'too_many_enrolled_mfa_factors',
      'Maximum number of verified factors reached, unenroll to continue',
    ),
  aal2ToEnrol: () => new AuthError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor'),
  aal2ToUnenrol: () => new AuthError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor'),
  enrolDisabled: () => new AuthError(422, 'mfa_totp_enroll_not_enabled', 'MFA enroll is disabled for TOTP'),
  verifyDisabled: () =>
    new AuthError(422, 'mfa_totp_verify_not_enabled', 'MFA verification is disabled for TOTP'),
  otherFactorType: () =>
    new AuthError(400, 'validation_failed', 'factor_type needs to be totp, phone, or webauthn'),
  unsupportedFactorType: (type: string) =>
    new AuthError(422, `mfa_${type}_enroll_not_enabled`, `MFA enroll is disabled for ${type}`),
  emptyCode: () => new AuthError(400, 'validation_failed', 'Code needs to be non-empty'),
  challengeNotFound: () =>
    new AuthError(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found'),
  challengeUsedOrElsewhere: () =>
    new AuthError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.'),
  challengeExpired: (id: string) =>
    new AuthError(
      422,
      'mfa_challenge_expired',
      `MFA challenge ${id} has expired, verify against another challenge or create a new challenge.`,
    ),
  wrongCode: () => new AuthError(422, 'mfa_verification_failed', 'Invalid TOTP code entered'),
};

interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: 'unverified' | 'verified';
  secret: string;
}

interface Caller {
  user: UserRow;
  sessionId: string;
}

export interface MfaOptions {
  pool: pg.Pool;
  jwt: JwtVerifier;
  sessionSettings: SessionSettings;
  settings: MfaSettings;
  /** The TOTP issuer when the caller names none: the site URL's host, as GoTrue. */
  defaultIssuer: string;
}

function textField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value : '';
}

/** The caller's session's assurance level, as its `amr` claims give it (models/sessions.go). */
async function sessionIsAal2(db: Pick<pg.Pool, 'query'>, sessionId: string): Promise<boolean> {
  const { rows } = await db.query<{ aal: string | null }>('select aal from auth.sessions where id = $1', [
    sessionId,
  ]);
  return rows[0]?.aal === 'aal2';
}

/** GoTrue's `DefaultQRSize`: pixels per module of the QR code's SVG (api/mfa.go). */
const qrModulePixels = 3;
/** The white border, in modules, that scanners need around a QR code. */
const qrMarginModules = 4;

/**
 * The QR code of `uri` as GoTrue draws it (goqrsvg, error correction H): a fixed size in pixels (so an
 * `<img>` shows it at whole pixels per module, sharp enough to scan) and named colours, since supabase-js puts
 * the SVG unescaped into a `data:image/svg+xml;utf-8,` URL, where a `#` of a hex colour would end the URL and
 * leave the picture blank.
 */
async function qrCodeSvg(uri: string): Promise<string> {
  const modules = QRCode.create(uri, { errorCorrectionLevel: 'H' }).modules.size + 2 * qrMarginModules;
  const svg = await QRCode.toString(uri, {
    type: 'svg',
    errorCorrectionLevel: 'H',
    margin: qrMarginModules,
    width: modules * qrModulePixels,
  });
  return svg.replaceAll('"#ffffff"', '"white"').replaceAll('"#000000"', '"black"');
}

export function createMfaHandlers({ pool, jwt, sessionSettings, settings, defaultIssuer }: MfaOptions) {
  async function ownFactor(caller: Caller, factorId: string): Promise<FactorRow> {
    if (!uuidPattern.test(factorId)) throw mfaErrors.factorIdNotUuid();
    const { rows } = await pool.query<FactorRow>(
      `select id, user_id, friendly_name, factor_type::text, status::text, secret
       from auth.mfa_factors where id = $1 and user_id = $2`,
      [factorId, caller.user.id],
    );
    if (!rows[0]) throw mfaErrors.factorNotFound();
    return rows[0];
  }

  /** POST /factors (`validateFactors` then `enrollTOTPFactor`). */
  async function enrol(caller: Caller, body: Record<string, unknown>) {
    const factorType = textField(body, 'factor_type');
    if (factorType === 'phone' || factorType === 'webauthn')
      throw mfaErrors.unsupportedFactorType(factorType);
    if (factorType !== 'totp') throw mfaErrors.otherFactorType();
    if (!settings.totpEnrollEnabled) throw mfaErrors.enrolDisabled();
    const friendlyName = textField(body, 'friendly_name');
    const issuer = textField(body, 'issuer') || defaultIssuer;

    await pool.query(
      `delete from auth.mfa_factors where status = 'unverified'
         and created_at < now() - make_interval(secs => $1)`,
      [settings.unverifiedFactorExpirySeconds],
    );
    const { rows: factors } = await pool.query<{ friendly_name: string | null; status: string }>(
      'select friendly_name, status::text from auth.mfa_factors where user_id = $1',
      [caller.user.id],
    );
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
      [challengeId, factor.id, address, settings.challengeExpirySeconds],
    );
    return { id: challengeId, type: 'totp', expires_at: rows[0]?.expires_at };
  }

  /**
   * POST /factors/{id}/verify: the code of a live challenge from the same address moves this session to
   * `aal2` (amr gains `totp`, a new refresh token replaces the current one), verifies a new factor, ends the
   * person's sessions still at `aal1`, and drops their other unverified factors.
   */
  async function verify(caller: Caller, factorId: string, body: Record<string, unknown>, address: string) {
    const factor = await ownFactor(caller, factorId);
    const code = textField(body, 'code');
    if (code === '') throw mfaErrors.emptyCode();
    if (!settings.totpVerifyEnabled) throw mfaErrors.verifyDisabled();
    const challengeId = textField(body, 'challenge_id');
    if (!uuidPattern.test(challengeId)) throw mfaErrors.challengeNotFound();
    const { rows } = await pool.query<{ verified: boolean; same_address: boolean; expired: boolean }>(
      `select verified_at is not null as verified, host(ip_address) = host($3::inet) as same_address,
              created_at + make_interval(secs => $4) < now() as expired
       from auth.mfa_challenges where id = $1 and factor_id = $2`,
      [challengeId, factor.id, address, settings.challengeExpirySeconds],
    );
    const found = rows[0];
    if (!found) throw mfaErrors.challengeNotFound();
    if (found.verified || !found.same_address) throw mfaErrors.challengeUsedOrElsewhere();
    if (found.expired) {
      await pool.query('delete from auth.mfa_challenges where id = $1', [challengeId]);
      throw mfaErrors.challengeExpired(challengeId);
    }
    if (!totpCodeMatches(factor.secret, code)) throw mfaErrors.wrongCode();

    const refreshToken = randomBytes(24).toString('base64url');
    const { user, amr } = await inTransaction(pool, async (client) => {
      await client.query('update auth.mfa_challenges set verified_at = now() where id = $1', [challengeId]);
      await client.query(
        `update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1 and status = 'unverified'`,
        [factor.id],
      );
      await client.query(
        `update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1`,
        [caller.sessionId, factor.id],
      );
      await client.query(
        `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method)
         values ($1, now(), now(), 'totp')
         on conflict (session_id, authentication_method) do update set updated_at = now()`,
        [caller.sessionId],
      );
      // GoTrue's GrantRefreshTokenSwap: the session's current token is revoked for a child.
      await client.query(
        `with current as (
           update auth.refresh_tokens set revoked = true, updated_at = now()
           where id = (select id from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1)
           returning token
         )
         insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
         values ('00000000-0000-0000-0000-000000000000', $2, $3, false, now(), now(), (select token from current), $1)`,
        [caller.sessionId, refreshToken, caller.user.id],
      );
      // models.InvalidateSessionsWithAALLessThan: a person who proved the second factor is signed out of
      // sessions that never did.
      await client.query(
        `delete from auth.sessions where user_id = $1 and id <> $2 and coalesce(aal, 'aal1') = 'aal1'`,
        [caller.user.id, caller.sessionId],
      );
      await client.query(
        `delete from auth.mfa_factors where user_id = $1 and factor_type = 'totp' and status = 'unverified'`,
        [caller.user.id],
      );
      return {
        user: await findUserById(client, caller.user.id),
        amr: await sessionAmr(client, caller.sessionId),
      };
    });
    if (!user) throw mfaErrors.factorNotFound();
    return tokenResponse(jwt, sessionSettings, user, caller.sessionId, refreshToken, amr);
  }

  /** DELETE /factors/{id}: a verified factor only from an `aal2` session; its sessions drop to `aal1`. */
  async function unenrol(caller: Caller, factorId: string) {
    const factor = await ownFactor(caller, factorId);
    if (factor.status === 'verified' && !(await sessionIsAal2(pool, caller.sessionId)))
      throw mfaErrors.aal2ToUnenrol();
    await pool.query(
      `with downgraded as (
         update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now()
         where factor_id = $1 returning id
       ), claims as (
         delete from auth.mfa_amr_claims where authentication_method = 'totp'
           and session_id in (select id from downgraded)
       )
       delete from auth.mfa_factors where id = $1`,
      [factor.id],
    );
    return { id: factor.id };
  }

  return { enrol, challenge, verify, unenrol };
}

export type MfaHandlers = ReturnType<typeof createMfaHandlers>;
