export default function AdminStatusTypesRoute() {
  return <h1 className="p-6 text-2xl font-semibold">Status types</h1>;
}
