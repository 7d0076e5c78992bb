export default function AdminAuditLogRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Audit log</h1>;
}
