/**
 * Light or dark: the system's choice until the person picks one with the toggle, then theirs,
 * remembered in this browser. index.html applies it before the first paint (no flash of the other
 * theme); this module keeps it applied and tells the toggle.
 */
export type Theme = 'light' | 'dark';

export const themeStorageKey = 'theme';
// Optional: an environment without media queries (jsdom) has no system theme, so it is light.
const systemDark = (): MediaQueryList | undefined => window.matchMedia?.('(prefers-color-scheme: dark)');

function chosenTheme(): Theme | null {
  const stored = localStorage.getItem(themeStorageKey);
  return stored === 'light' || stored === 'dark' ? stored : null;
}

export function currentTheme(): Theme {
  return chosenTheme() ?? (systemDark()?.matches ? 'dark' : 'light');
}

const listeners = new Set<() => void>();

function applyToDocument(): void {
  document.documentElement.classList.toggle('dark', currentTheme() === 'dark');
}

function apply(): void {
  applyToDocument();
  listeners.forEach((listener) => listener());
}

export function chooseTheme(theme: Theme): void {
  localStorage.setItem(themeStorageKey, theme);
  apply();
}

/** For useSyncExternalStore: follows the system while no theme is chosen, and the toggle. */
export function subscribeToTheme(listener: () => void): () => void {
  if (listeners.size === 0) {
    systemDark()?.addEventListener('change', apply);
    // The system's theme may have changed since index.html applied it, while nothing listened yet.
    applyToDocument();
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) systemDark()?.removeEventListener('change', apply);
  };
}
