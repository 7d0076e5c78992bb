export default function PrivacyPolicyRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Privacy Policy</h1>;
}
