// @vitest-environment jsdom
import { subscribeToTheme } from './theme';

describe('theme', () => {
  it('applies a change of the system theme made before anything listened, once something does', () => {
    // index.html applied dark while the system was dark; it turned light (jsdom's system is light) before
    // the app subscribed.
    document.documentElement.classList.add('dark');
    const unsubscribe = subscribeToTheme(() => {});
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    unsubscribe();
  });
});
