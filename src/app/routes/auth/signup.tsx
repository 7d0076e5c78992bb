export default function SignupRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Sign up</h1>;
}
