import { AuthError } from './errors';

/** GoTrue's MFA refusals, with its statuses, codes and messages (api/mfa.go, api/apierrors). */
export const mfaErrors = {
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
