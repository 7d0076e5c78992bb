import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { ConfirmSignupPanel } from '@/features/auth/components/confirm-signup-panel';

export default function ConfirmSignupRoute() {
  const navigate = useNavigate();
  const goToWallet = useCallback(() => navigate('/user/wallet', { replace: true }), [navigate]);
  return (
    <div className="px-4 py-12">
      <ConfirmSignupPanel onConfirmed={goToWallet} />
    </div>
  );
}
