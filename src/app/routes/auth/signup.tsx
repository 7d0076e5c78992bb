import { useNavigate } from 'react-router-dom';
import { AuthCard } from '@/features/auth/components/auth-card';
import { AuthLink } from '@/features/auth/components/auth-link';
import { SignupForm } from '@/features/auth/components/signup-form';

export default function SignupRoute() {
  const navigate = useNavigate();
  return (
    <div className="px-4 py-12">
      <AuthCard
        title="Create your account"
        description="A USD wallet with its own wallet code, ready in seconds."
        footer={
          <p>
            Already have an account? <AuthLink to="/login">Log in</AuthLink>
          </p>
        }
      >
        <SignupForm onSuccess={(signedIn) => navigate(signedIn ? '/user/wallet' : '/login')} />
      </AuthCard>
    </div>
  );
}
