import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const templatesDir = path.resolve(__dirname, '../../supabase/templates');

/**
 * GoTrue reads each e-mail template as a file of its own (`[auth.email.template.*] content_path`) and
 * parses it alone, with no shared partials: the anti-phishing block is therefore written once per template.
 * This keeps the copies one text, so a change to one is a change to all.
 */
describe("Auth's e-mail templates", () => {
  it('each open with the same anti-phishing block', async () => {
    const names = (await readdir(templatesDir)).filter((name) => name.endsWith('.html')).sort();
    const blocks = await Promise.all(
      names.map(async (name) => {
        const text = await readFile(path.join(templatesDir, name), 'utf8');
        return text.slice(0, text.indexOf('{{ end -}}\n') + '{{ end -}}\n'.length);
      }),
    );
    expect(names).toEqual([
      'confirmation.html',
      'email_change.html',
      'invite.html',
      'magic_link.html',
      'reauthentication.html',
      'recovery.html',
    ]);
    expect(blocks[0]).toMatch(
      /^\{\{ if \.Data\.anti_phishing_phrase -\}\}\n[\s\S]*Your anti-phishing phrase/,
    );
    expect(new Set(blocks)).toEqual(new Set([blocks[0]]));
  });
});
