export default function AdminSettingsRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Settings</h1>;
}
