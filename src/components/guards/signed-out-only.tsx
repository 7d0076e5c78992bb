import { useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuth } from '@/lib/auth';
import { returnPathAfterLogin } from '@/lib/return-path';
import { SessionPending } from './session-pending';

/**
 * A page for people who are not signed in (log in, sign up): someone who arrives signed in goes on to
 * their area. Once the form has shown, it stays: signing in there moves on through the form's own
 * success path, so the form is never taken away while its request is under way.
 */
export function SignedOutOnly({ children }: { children: ReactNode }) {
  const { isLoading, session } = useAuth();
  const location = useLocation();
  const [formShown, setFormShown] = useState(false);
  if (!formShown && !isLoading && !session) setFormShown(true);
  if (formShown) return children;
  if (session) return <Navigate to={returnPathAfterLogin(location.state)} replace />;
  return <SessionPending />;
}
