import { useSearchParams } from 'react-router-dom';
import { NotMePanel } from '@/features/account-security/components/not-me-panel';

export default function NotMeRoute() {
  const [searchParams] = useSearchParams();
  return (
    <div className="px-4 py-12">
      <NotMePanel token={searchParams.get('token')} />
    </div>
  );
}
