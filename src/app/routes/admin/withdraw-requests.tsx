export default function AdminWithdrawRequestsRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Withdraw requests</h1>;
}
