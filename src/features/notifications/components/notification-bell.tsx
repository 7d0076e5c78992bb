import { BellIcon } from 'lucide-react';
import { useId, useRef } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { AppNotification } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';
import { useLiveNotifications } from '../hooks/use-live-notifications';
import { QueryState } from '@/components/query-state';
import { NOTIFICATIONS_LOAD_FAILED_MESSAGE, MARK_READ_FAILED_MESSAGE } from '../api/notifications-messages';

function NotificationItem({ notification }: { notification: AppNotification }) {
  return (
    <li className="flex gap-3 py-3" data-testid="notification" data-read={notification.read}>
      <span
        aria-hidden
        className={cn(
          'mt-1.5 size-2 shrink-0 rounded-full',
          notification.read ? 'bg-transparent' : 'bg-primary',
        )}
      />
      <div className="grid gap-0.5">
        <p className="font-medium">
          {notification.title}
          {!notification.read && <span className="sr-only"> (unread)</span>}
        </p>
        <p className="text-muted-foreground text-sm">{notification.body}</p>
        <time dateTime={notification.createdAt} className="text-muted-foreground text-xs tabular-nums">
          {formatDateTime(notification.createdAt)}
        </time>
      </div>
    </li>
  );
}

/**
 * The shell's bell: the unread count, live, and the newest notifications in a panel anchored to the bell.
 * Opening it puts the focus on the panel itself, not on Mark all as read, so Enter does not read them all.
 */
export function NotificationBell() {
  const notifications = useLiveNotifications();
  const markRead = useMarkNotificationsRead();
  const unread = notifications.data?.unreadCount ?? 0;
  const unreadText = unread > 9 ? '9+' : String(unread);
  const titleId = useId();
  const summaryId = useId();
  const panel = useRef<HTMLDivElement>(null);

  const markAllRead = async () => {
    try {
      await markRead.mutateAsync();
    } catch {
      toast.error(MARK_READ_FAILED_MESSAGE);
    }
  };

  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={unread > 0 ? `Notifications, ${unreadText} unread` : 'Notifications'}
        >
          <BellIcon aria-hidden />
          {unread > 0 && (
            <span
              aria-hidden
              data-testid="unread-count"
              className="bg-destructive text-destructive-foreground absolute top-1 right-1 min-w-4 rounded-full px-1 text-center text-[10px] leading-4 font-semibold tabular-nums"
            >
              {unreadText}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent
        ref={panel}
        aria-labelledby={titleId}
        aria-describedby={summaryId}
        tabIndex={-1}
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          panel.current?.focus();
        }}
      >
        <header className="grid gap-0.5">
          <h2 id={titleId} className="font-semibold">
            Notifications
          </h2>
          <p id={summaryId} className="text-muted-foreground text-sm">
            {unread > 0 ? `${unread} unread` : 'You are all caught up.'}
          </p>
        </header>
        <QueryState
          query={notifications}
          placeholder={<p className="text-muted-foreground text-sm">Loading…</p>}
          errorMessage={NOTIFICATIONS_LOAD_FAILED_MESSAGE}
        >
          {({ latest }) =>
            latest.length === 0 ? (
              <p className="text-muted-foreground text-sm">No notifications yet.</p>
            ) : (
              <ul aria-label="Latest notifications" className="max-h-[60vh] divide-y overflow-y-auto">
                {latest.map((notification) => (
                  <NotificationItem key={notification.id} notification={notification} />
                ))}
              </ul>
            )
          }
        </QueryState>
        {unread > 0 && (
          <Button variant="outline" disabled={markRead.isPending} onClick={() => void markAllRead()}>
            Mark all as read
          </Button>
        )}
      </PopoverContent>
    </Popover>
  );
}
