import { qrCodePath } from './qr-code-path';

// The app's type checks know `self` as a window; in a worker it posts to the page that started it.
const scope = self as unknown as Pick<Worker, 'postMessage'>;

self.onmessage = (event: MessageEvent<string>) => scope.postMessage(qrCodePath(event.data));
