import QRCode from 'qrcode';

/** GoTrue's `DefaultQRSize`: pixels per module of the QR code's SVG (api/mfa.go). */
const qrModulePixels = 3;
/** The white border, in modules, that scanners need around a QR code. */
const qrMarginModules = 4;

/**
 * The QR code of `uri` as GoTrue draws it (goqrsvg, error correction H): a fixed size in pixels (so an
 * `<img>` shows it at whole pixels per module, sharp enough to scan) and named colours, since supabase-js puts
 * the SVG unescaped into a `data:image/svg+xml;utf-8,` URL, where a `#` of a hex colour would end the URL and
 * leave the picture blank.
 */
export async function qrCodeSvg(uri: string): Promise<string> {
  const modules = QRCode.create(uri, { errorCorrectionLevel: 'H' }).modules.size + 2 * qrMarginModules;
  const svg = await QRCode.toString(uri, {
    type: 'svg',
    errorCorrectionLevel: 'H',
    margin: qrMarginModules,
    width: modules * qrModulePixels,
  });
  return svg.replaceAll('"#ffffff"', '"white"').replaceAll('"#000000"', '"black"');
}
