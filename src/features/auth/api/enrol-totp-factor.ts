import { supabase } from '@/lib/supabase';

export interface TotpEnrolment {
  factorId: string;
  /** The QR code of the `otpauth://` URI, as an SVG data URL (Auth's own). */
  qrCode: string;
  /** The same key in base32, for typing into an app that cannot scan. */
  secret: string;
}

/** The name Auth keeps for the first authenticator app, and for the backup (unique per person in Auth). */
export const FIRST_APP_NAME = 'Authenticator app';
export const BACKUP_APP_NAME = 'Backup authenticator app';

/**
 * Starts enrolling an authenticator app: Auth makes the secret and its QR code; the factor counts only once
 * a code of it is verified. An earlier enrolment left unconfirmed is removed first, so starting again never
 * runs into Auth's friendly-name conflict. A backup (a second app, which Supabase recommends against a lost
 * phone) takes a name of its own, as Auth wants every factor of a person named differently.
 */
export async function enrolTotpFactor(friendlyName: string = FIRST_APP_NAME): Promise<TotpEnrolment> {
  const listed = await supabase.auth.mfa.listFactors();
  if (listed.error) throw listed.error;
  for (const factor of listed.data.all.filter((candidate) => candidate.status === 'unverified')) {
    const { error } = await supabase.auth.mfa.unenroll({ factorId: factor.id });
    if (error) throw error;
  }
  const { data, error } = await supabase.auth.mfa.enroll({
    factorType: 'totp',
    friendlyName,
  });
  if (error) throw error;
  return { factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret };
}
