export default function DisclaimerRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Disclaimer</h1>;
}
