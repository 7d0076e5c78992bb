import { use, type ComponentType, type ReactElement } from 'react';

export type PageModule = { default: ComponentType };

export interface LazyPage {
  (): ReactElement;
  /** Starts loading the page's code (once); rendering then waits for nothing. */
  preload: () => Promise<PageModule>;
}

/**
 * `React.lazy` with a `preload`, which also renders without suspending once the code has arrived.
 * `React.lazy` suspends on its first render even when the module is already loaded, and React holds a
 * suspended boundary's content back for up to 300 ms after showing its fallback: nested lazy pages
 * (area layout, then page) cost that twice on a deep link. A failed load stays failed, so the error
 * screen shows (and its Reload retries) instead of a loop of retries.
 */
export function lazyPage(load: () => Promise<PageModule>): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<PageModule> | undefined;
  const preload = () => {
    loading ??= load().then((module) => {
      loaded = module.default;
      return module;
    });
    return loading;
  };
  function Page() {
    const Component = loaded ?? use(preload()).default;
    return <Component />;
  }
  return Object.assign(Page, { preload });
}
