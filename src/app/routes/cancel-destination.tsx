import { useSearchParams } from 'react-router-dom';
import { CancelDestinationPanel } from '@/features/protections/components/cancel-destination-panel';

export default function CancelDestinationRoute() {
  const [searchParams] = useSearchParams();
  return (
    <div className="px-4 py-12">
      <CancelDestinationPanel token={searchParams.get('token')} />
    </div>
  );
}
