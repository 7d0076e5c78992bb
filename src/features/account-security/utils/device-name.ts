/** Browsers by the token their user agent carries, the ones that imitate others first (Edge says Chrome too). */
const browsers: ReadonlyArray<[name: string, token: RegExp]> = [
  ['Edge', /Edg(e|A|iOS)?\//],
  ['Opera', /OPR\/|Opera/],
  ['Samsung Internet', /SamsungBrowser\//],
  ['Firefox', /Firefox\/|FxiOS\//],
  ['Chrome', /Chrome\/|CriOS\//],
  ['Safari', /Safari\//],
];

/** Systems by their user agent token, phones and tablets before the desktop systems they resemble. */
const systems: ReadonlyArray<[name: string, token: RegExp]> = [
  ['iPhone', /iPhone/],
  ['iPad', /iPad/],
  ['Android', /Android/],
  ['Windows', /Windows/],
  ['ChromeOS', /CrOS/],
  ['macOS', /Macintosh|Mac OS X/],
  ['Linux', /Linux/],
];

const firstMatch = (candidates: ReadonlyArray<[string, RegExp]>, userAgent: string) =>
  candidates.find(([, token]) => token.test(userAgent))?.[0];

/**
 * What a person calls the device of a session: "Chrome on Windows", "Safari on iPhone". A program that is
 * not a known browser (a script, an app) is named by its user agent's first word, so it still stands out.
 */
export function deviceName(userAgent: string | null): string {
  if (!userAgent?.trim()) return 'Unknown device';
  const browser = firstMatch(browsers, userAgent);
  const system = firstMatch(systems, userAgent);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? userAgent.trim().split(/[\s/]/)[0] ?? 'Unknown device';
}
