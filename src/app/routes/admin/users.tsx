export default function AdminUsersRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Users</h1>;
}
