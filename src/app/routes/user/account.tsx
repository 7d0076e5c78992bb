export default function AccountRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Account</h1>;
}
