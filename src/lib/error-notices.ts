/**
 * Error messages raised outside any page (the session's own checks) for the app's toaster. The toaster's
 * code loads lazily, so a message raised before it is on screen waits for it instead of being lost.
 */
type ShowError = (message: string) => void;

let showError: ShowError | undefined;
const waiting: string[] = [];

export function announceError(message: string): void {
  if (showError) showError(message);
  else waiting.push(message);
}

/** Called by the toaster once it shows: it receives what waited, then every later message. */
export function showAnnouncedErrors(show: ShowError): () => void {
  showError = show;
  waiting.splice(0).forEach(show);
  return () => {
    if (showError === show) showError = undefined;
  };
}
