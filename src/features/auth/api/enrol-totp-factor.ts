import { supabase } from '@/lib/supabase';

export interface TotpEnrolment {
  factorId: string;
  /** The QR code of the `otpauth://` URI, as an SVG data URL (Auth's own). */
  qrCode: string;
  /** The same key in base32, for typing into an app that cannot scan. */
  secret: string;
}

/**
 * Starts enrolling an authenticator app: Auth makes the secret and its QR code; the factor counts only once
 * a code of it is verified. An earlier enrolment left unconfirmed is removed first, so starting again never
 * runs into Auth's friendly-name conflict.
 */
export async function enrolTotpFactor(): Promise<TotpEnrolment> {
  const listed = await supabase.auth.mfa.listFactors();
  if (listed.error) throw listed.error;
  for (const factor of listed.data.all.filter((candidate) => candidate.status === 'unverified')) {
    const { error } = await supabase.auth.mfa.unenroll({ factorId: factor.id });
    if (error) throw error;
  }
  const { data, error } = await supabase.auth.mfa.enroll({
    factorType: 'totp',
    friendlyName: 'Authenticator app',
  });
  if (error) throw error;
  return { factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret };
}
