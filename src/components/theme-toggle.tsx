import { MoonIcon, SunIcon } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { Button } from '@/components/ui/button';
import { chooseTheme, currentTheme, subscribeToTheme } from '@/lib/theme';

/** Switches between the light and the dark theme; the choice is remembered in this browser. */
export function ThemeToggle() {
  const theme = useSyncExternalStore(subscribeToTheme, currentTheme, () => 'light' as const);
  const dark = theme === 'dark';
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Dark theme"
      aria-pressed={dark}
      onClick={() => chooseTheme(dark ? 'light' : 'dark')}
    >
      {dark ? <MoonIcon aria-hidden /> : <SunIcon aria-hidden />}
    </Button>
  );
}
