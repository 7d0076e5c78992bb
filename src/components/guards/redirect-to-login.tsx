import { Navigate, useLocation } from 'react-router-dom';
import { loginRedirectState } from '@/lib/return-path';

/** Sends a visitor to /login, remembering the page they asked for. */
export function RedirectToLogin() {
  const location = useLocation();
  return <Navigate to="/login" replace state={loginRedirectState(location)} />;
}
