import { LogOutIcon, type LucideIcon } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { cn } from '@/lib/utils';

export interface NavItem {
  to: string;
  label: string;
  icon?: LucideIcon;
  /** Shown after the label, e.g. how many requests wait in a queue. */
  badge?: ReactNode;
}

export interface NavGroup {
  title: string;
  items: NavItem[];
}

const entryClass =
  'focus-visible:ring-ring flex min-h-10 items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:outline-none';

/**
 * One titled group of links. The heading's id comes from useId: a title is no id (it may hold spaces), and the
 * shell renders the menu twice (the sidebar and the phone's sheet), so ids built from titles would repeat.
 */
function NavSection({ group, onNavigate }: { group: NavGroup; onNavigate?: () => void }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="grid gap-1">
      <h2 id={headingId} className="text-muted-foreground px-3 text-xs font-semibold tracking-wide uppercase">
        {group.title}
      </h2>
      <ul className="grid gap-1">
        {group.items.map(({ to, label, icon: Icon, badge }) => (
          <li key={to}>
            <NavLink
              to={to}
              onClick={onNavigate}
              className={({ isActive }) =>
                cn(
                  entryClass,
                  isActive
                    ? 'bg-primary text-primary-foreground'
                    : 'text-foreground hover:bg-accent hover:text-accent-foreground',
                )
              }
            >
              {Icon && <Icon className="size-4 shrink-0" aria-hidden />}
              {label}
              {badge}
            </NavLink>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The side menu: groups of links with the current route highlighted, and Logout at the bottom. */
export function AppShellNav({ groups, onNavigate }: { groups: NavGroup[]; onNavigate?: () => void }) {
  return (
    <nav aria-label="Side menu" className="flex h-full flex-col gap-6 p-4">
      <div className="flex flex-col gap-6">
        {groups.map((group) => (
          <NavSection key={group.title} group={group} onNavigate={onNavigate} />
        ))}
      </div>
      <Link
        to="/logout"
        onClick={onNavigate}
        className={cn(entryClass, 'text-foreground hover:bg-accent hover:text-accent-foreground mt-auto')}
      >
        <LogOutIcon className="size-4 shrink-0" aria-hidden />
        Logout
      </Link>
    </nav>
  );
}
