import { Outlet } from 'react-router-dom';

export default function PublicLayout() {
  return (
    <div className="bg-background text-foreground min-h-screen">
      <Outlet />
    </div>
  );
}
