import { useLocation, useNavigate } from 'react-router-dom';
import { AuthCard } from '@/features/auth/components/auth-card';
import { AuthLink } from '@/features/auth/components/auth-link';
import { LoginForm } from '@/features/auth/components/login-form';
import { returnPathAfterLogin } from '@/lib/return-path';

export default function LoginRoute() {
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <div className="px-4 py-12">
      <AuthCard
        title="Log in"
        description="Welcome back. Log in to your wallet."
        footer={
          <>
            <AuthLink to="/reset-password">Forgot your password?</AuthLink>
            <p>
              No account yet? <AuthLink to="/signup">Sign up</AuthLink>
            </p>
          </>
        }
      >
        <LoginForm onSuccess={() => navigate(returnPathAfterLogin(location.state), { replace: true })} />
      </AuthCard>
    </div>
  );
}
