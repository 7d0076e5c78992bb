/**
 * A page whose code cannot be loaded: after a deploy the old chunk names are gone from the server, or
 * the connection dropped. One reload by itself fetches the new version; past that, the person decides.
 */

/** Chromium, Firefox and Safari word a failed dynamic import differently. */
const missingCodeMessages = [
  'Failed to fetch dynamically imported module',
  'error loading dynamically imported module',
  'Importing a module script failed',
];

export function isMissingPageCode(error: unknown): boolean {
  return error instanceof Error && missingCodeMessages.some((message) => error.message.includes(message));
}

const reloadedAtKey = 'reloadedForMissingCodeAt';
/** A reload within this long of the last one is a second try: the code is still missing, so stop. */
const SECOND_TRY_WINDOW_MS = 30_000;

/** Reloads the page, unless it was just reloaded for the same reason; says whether it did. */
export function reloadOnceForMissingCode(now: number = Date.now()): boolean {
  const last = Number(sessionStorage.getItem(reloadedAtKey) ?? 0);
  if (now - last < SECOND_TRY_WINDOW_MS) return false;
  sessionStorage.setItem(reloadedAtKey, String(now));
  window.location.reload();
  return true;
}

export const MISSING_PAGE_CODE_MESSAGE =
  'This page could not be loaded. The app may have just been updated, or the connection dropped: reloading fetches the latest version.';
