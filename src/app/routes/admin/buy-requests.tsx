export default function AdminBuyRequestsRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Buy requests</h1>;
}
