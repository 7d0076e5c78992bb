export default function ResetPasswordRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Reset password</h1>;
}
