import type { Json } from '@/types/database';

/** A field name as words: `new_status` → `New status`. */
const words = (name: string) => {
  const spaced = name.replaceAll('_', ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};

/** A value as text: strings as they are, nothing as a dash, lists and objects as compact JSON. */
const text = (value: Json | undefined) =>
  value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/**
 * An audit entry's details as named lines (`New status: complete`) rather than raw JSON; details that are
 * not an object make one line of their own text.
 */
export function auditDetailLines(details: Json): { name: string; value: string }[] {
  if (details === null) return [];
  if (typeof details !== 'object' || Array.isArray(details))
    return [{ name: 'Details', value: text(details) }];
  return Object.entries(details).map(([name, value]) => ({ name: words(name), value: text(value) }));
}
