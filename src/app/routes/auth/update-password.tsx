export default function UpdatePasswordRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Set a new password</h1>;
}
