import { Outlet } from 'react-router-dom';

export default function AreaLayout() {
  return <Outlet />;
}
