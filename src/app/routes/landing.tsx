export default function LandingRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Welcome to the product</h1>;
}
