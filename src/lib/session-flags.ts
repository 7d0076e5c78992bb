/**
 * Flags for "once per browser session" (the limits notices' hasSeenLimits and the like), kept in session
 * cookies: every tab of the browser shares them, and they end when the browser session does. Session
 * storage (one per tab) would show the notice again in each new tab.
 */

export function sessionFlagIsSet(name: string): boolean {
  return document.cookie.split('; ').includes(`${name}=true`);
}

export function setSessionFlag(name: string): void {
  // No Expires or Max-Age: the browser drops it when the session ends.
  document.cookie = `${name}=true; path=/; SameSite=Lax`;
}
