import { useEffect } from 'react';
import { Toaster as SonnerToaster, toast } from 'sonner';
import { showAnnouncedErrors } from '@/lib/error-notices';

/**
 * The app's toasts: top right for 5 s, below the sticky top bars (56–64 px) so they never cover Account or
 * Logout. Neutral colours: sonner's rich colours fail WCAG contrast for their text.
 */
export function Toaster() {
  useEffect(() => showAnnouncedErrors((message) => toast.error(message, { id: message })), []);
  return (
    <SonnerToaster
      position="top-right"
      duration={5000}
      closeButton
      offset={{ top: '4.5rem' }}
      mobileOffset={{ top: '4.5rem' }}
    />
  );
}
