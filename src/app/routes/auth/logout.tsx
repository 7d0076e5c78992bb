export default function LogoutRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Logging out</h1>;
}
