import { useNavigate } from 'react-router-dom';
import { AuthCard } from '@/features/auth/components/auth-card';
import { AuthLink } from '@/features/auth/components/auth-link';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

export default function ResetPasswordRoute() {
  const navigate = useNavigate();
  return (
    <div className="px-4 py-12">
      <AuthCard
        title="Reset your password"
        description="We will e-mail you a link to choose a new password."
        footer={<AuthLink to="/login">Back to log in</AuthLink>}
      >
        <ResetPasswordForm onSuccess={() => navigate('/login')} />
      </AuthCard>
    </div>
  );
}
