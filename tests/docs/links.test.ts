import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The front door and the documents it leads to. */
const documents = [
  'README.md',
  'devstack/README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Markdown links and images, and HTML `src`/`href` attributes, outside code blocks and code spans. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? ''),
    ...[...prose.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? ''),
  ];
  return targets
    .filter((target) => !/^([a-z][a-z0-9+.-]*:|#)/i.test(target))
    .map((target) => decodeURIComponent(target.replace(/[#?].*$/, '')));
}

describe('the documentation a newcomer reads', () => {
  it('has a README of at most 10 KB', () => {
    expect(statSync(path.join(root, 'README.md')).size).toBeLessThanOrEqual(10 * 1024);
  });

  it.each(documents)('%s links only to files that exist', (document) => {
    const links = relativeLinks(readFileSync(path.join(root, document), 'utf8'));
    const missing = links.filter((link) => !existsSync(path.resolve(root, path.dirname(document), link)));
    expect(missing).toEqual([]);
  });

  it('finds the links it checks', () => {
    expect(relativeLinks('[a](docs/a.md) <img src="b.png"> [c](https://x) [d](#e) `[f](g.md)`')).toEqual([
      'docs/a.md',
      'b.png',
    ]);
  });
});
