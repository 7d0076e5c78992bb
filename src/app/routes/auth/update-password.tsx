import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { UpdatePasswordPanel } from '@/features/auth/components/update-password-panel';

export default function UpdatePasswordRoute() {
  const navigate = useNavigate();
  const goToWallet = useCallback(() => navigate('/user/wallet', { replace: true }), [navigate]);
  return (
    <div className="px-4 py-12">
      <UpdatePasswordPanel onUpdated={goToWallet} />
    </div>
  );
}
