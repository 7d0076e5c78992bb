export default function WalletRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Your Wallet</h1>;
}
