import type { QrCodePath } from './qr-code-path';

const encodeInPlace = (text: string) => import('./qr-code-path').then(({ qrCodePath }) => qrCodePath(text));

/**
 * The QR code of `text`, encoded in a worker: choosing the best of eight masks took 20–25 ms of the page's
 * main thread, in the render that shows the wallet as it loads. In place where no worker can start.
 */
export function encodeQrCode(text: string): Promise<QrCodePath> {
  if (typeof Worker === 'undefined') return encodeInPlace(text);
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./qr-code.worker.ts', import.meta.url), {
      type: 'module',
      name: 'qr-code',
    });
    const settle = (encoded: Promise<QrCodePath> | QrCodePath) => {
      worker.terminate();
      resolve(encoded);
    };
    worker.onmessage = (event: MessageEvent<QrCodePath>) => settle(event.data);
    worker.onerror = () => settle(encodeInPlace(text));
    worker.postMessage(text);
  });
}
