export default function AdminTransactionsRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Transactions</h1>;
}
