import { useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuth } from '@/lib/auth';
import { returnPathAfterLogin } from '@/lib/return-path';
import { hasStoredSession } from '@/lib/stored-session';
import { SessionPending } from './session-pending';

/**
 * A page for people who are not signed in (log in, sign up): someone who arrives signed in goes on to
 * their area. A browser that keeps no session shows the form at once, without waiting for the session
 * check (nobody to send on); one that keeps a session waits for the check. Once the form has shown, it
 * stays: signing in there moves on through the form's own success path, so the form is never taken away
 * while its request is under way.
 */
export function SignedOutOnly({ children }: { children: ReactNode }) {
  const { isLoading, session } = useAuth();
  const location = useLocation();
  const [formShown, setFormShown] = useState(() => !hasStoredSession());
  if (!formShown && !isLoading && !session) setFormShown(true);
  if (formShown) return children;
  if (session) return <Navigate to={returnPathAfterLogin(location.state)} replace />;
  return <SessionPending />;
}
