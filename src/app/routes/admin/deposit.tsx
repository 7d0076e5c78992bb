export default function AdminDepositRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Deposit</h1>;
}
