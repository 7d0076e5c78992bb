export default function LoginRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Log in</h1>;
}
