import { Link, useLocation, useNavigate } from 'react-router-dom';
import { AuthCard } from '@/features/auth/components/auth-card';
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
            <Link to="/reset-password" className="text-primary underline-offset-4 hover:underline">
              Forgot your password?
            </Link>
            <p>
              No account yet?{' '}
              <Link to="/signup" className="text-primary underline-offset-4 hover:underline">
                Sign up
              </Link>
            </p>
          </>
        }
      >
        <LoginForm onSuccess={() => navigate(returnPathAfterLogin(location.state), { replace: true })} />
      </AuthCard>
    </div>
  );
}
