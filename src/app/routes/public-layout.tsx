import { Outlet } from 'react-router-dom';
import { PublicLayout } from '@/components/layouts/public-layout';

export default function PublicLayoutRoute() {
  return (
    <PublicLayout>
      <Outlet />
    </PublicLayout>
  );
}
