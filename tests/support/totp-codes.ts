import { totpCode, totpStep } from '../../devstack/src/gateway/auth/totp';

const stepMs = 30_000;
/** The last step whose code this process handed out, per secret. */
const lastStepHandedOut = new Map<string, number>();

/**
 * A code of `secret` that Auth has not accepted yet, as the person's authenticator would show it: Auth
 * accepts each step's code once (RFC 6238 §5.2) from the step before now to the step after, so this hands
 * out the current step's code, then the next step's, and waits for the clock only when both were used.
 * `used` marks a step refused as already used (another process took it).
 */
export async function unusedTotpCode(secret: string, used?: number): Promise<{ code: string; step: number }> {
  if (used !== undefined)
    lastStepHandedOut.set(secret, Math.max(used, lastStepHandedOut.get(secret) ?? used));
  const step = Math.max((lastStepHandedOut.get(secret) ?? -Infinity) + 1, totpStep(new Date()));
  // A step two ahead is accepted once the clock is in the step before it.
  const acceptedFrom = (step - 1) * stepMs;
  if (Date.now() < acceptedFrom)
    await new Promise((resolve) => setTimeout(resolve, acceptedFrom - Date.now()));
  lastStepHandedOut.set(secret, step);
  return { code: totpCode(secret, new Date(step * stepMs)), step };
}
