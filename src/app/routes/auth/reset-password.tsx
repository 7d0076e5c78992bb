import { Link, useNavigate } from 'react-router-dom';
import { AuthCard } from '@/features/auth/components/auth-card';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

export default function ResetPasswordRoute() {
  const navigate = useNavigate();
  return (
    <div className="px-4 py-12">
      <AuthCard
        title="Reset your password"
        description="We will e-mail you a link to choose a new password."
        footer={
          <Link to="/login" className="text-primary underline-offset-4 hover:underline">
            Back to log in
          </Link>
        }
      >
        <ResetPasswordForm onSuccess={() => navigate('/login')} />
      </AuthCard>
    </div>
  );
}
