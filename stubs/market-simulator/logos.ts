import { simulatedCoins } from './coins';

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A 64×64 round logo in the coin's brand colour, served locally so the simulator works offline. */
export function coinLogoSvg(coinId: string): string | undefined {
  const coin = simulatedCoins.find((candidate) => candidate.id === coinId);
  if (!coin) return undefined;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">',
    `<title>${escapeXml(coin.name)}</title>`,
    `<circle cx="32" cy="32" r="32" fill="${coin.colour}"/>`,
    '<circle cx="32" cy="32" r="25" fill="none" stroke="#fff" stroke-opacity=".25" stroke-width="2"/>',
    '<text x="32" y="33" fill="#fff" font-family="system-ui, sans-serif" font-size="28" font-weight="700"',
    ` text-anchor="middle" dominant-baseline="central">${escapeXml(coin.glyph)}</text>`,
    '</svg>',
  ].join('');
}
