import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { SessionPending } from '@/components/guards/session-pending';
import { useLogOut } from '../api/log-out';
import { LOG_OUT_FAILED_MESSAGE, LOG_OUT_SUCCEEDED_MESSAGE } from '../api/auth-messages';

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
        toast.success(LOG_OUT_SUCCEEDED_MESSAGE);
        navigate('/login', { replace: true });
      },
      () => {
        toast.error(LOG_OUT_FAILED_MESSAGE);
        navigate('/dashboard', { replace: true });
      },
    );
  }, [logOut, navigate]);

  return <SessionPending />;
}
