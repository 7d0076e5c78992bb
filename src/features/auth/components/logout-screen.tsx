import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { SessionPending } from '@/components/guards/session-pending';
import { logOutFailedMessage, logOutSucceededMessage, useLogOut } from '../api/log-out';

/** /logout: signs out once on arrival, says how it went, and leaves (to /login, or back on failure). */
export function LogoutScreen() {
  const navigate = useNavigate();
  const { mutateAsync: logOut } = useLogOut();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    logOut().then(
      () => {
        toast.success(logOutSucceededMessage);
        navigate('/login', { replace: true });
      },
      () => {
        toast.error(logOutFailedMessage);
        navigate('/dashboard', { replace: true });
      },
    );
  }, [logOut, navigate]);

  return <SessionPending />;
}
