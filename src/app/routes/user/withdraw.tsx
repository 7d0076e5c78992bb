export default function WithdrawRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Withdraw</h1>;
}
