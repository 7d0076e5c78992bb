import type { Location } from 'react-router-dom';

/** Router state a guard hands to /login, so the person comes back to the page that asked for it. */
export interface LoginRedirectState {
  from: string;
}

export function loginRedirectState(location: Location): LoginRedirectState {
  return { from: `${location.pathname}${location.search}${location.hash}` };
}

/** Where to go after logging in: the page that asked, if it is one of ours, else the dashboard. */
export function returnPathAfterLogin(state: unknown): string {
  const from = (state as Partial<LoginRedirectState> | null)?.from;
  // Only same-site paths: "//evil.example" would leave the app.
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : '/dashboard';
}
