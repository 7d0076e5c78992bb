export default function BuyRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Buy Cryptocurrency</h1>;
}
