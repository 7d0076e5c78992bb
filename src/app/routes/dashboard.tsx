export default function DashboardRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Dashboard</h1>;
}
