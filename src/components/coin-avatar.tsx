import { useState } from 'react';
import { cn } from '@/lib/utils';

/** The coin's logo, or its initial when there is no logo or it fails to load (the built-in sample has none). */
export function CoinAvatar({
  image,
  symbol,
  className,
}: {
  image: string;
  symbol: string;
  className?: string;
}) {
  const [failedImage, setFailedImage] = useState<string>();
  const classes = cn('size-8 shrink-0 rounded-full', className);

  if (!image || failedImage === image) {
    return (
      <span
        aria-hidden
        className={cn(
          classes,
          'bg-secondary text-secondary-foreground grid place-items-center text-xs font-semibold',
        )}
      >
        {symbol.slice(0, 1).toUpperCase()}
      </span>
    );
  }
  return (
    <img
      src={image}
      alt=""
      width={32}
      height={32}
      loading="lazy"
      decoding="async"
      className={classes}
      onError={() => setFailedImage(image)}
    />
  );
}
