export default function TermsOfServiceRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Terms of Service</h1>;
}
