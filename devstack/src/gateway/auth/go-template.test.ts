import { describe, expect, it } from 'vitest';
import { parseGoTemplate } from './go-template';

// Go's html/template, as GoTrue renders e-mail templates (internal/mailer/templatemailer/template.go).
const render = (source: string, data: Record<string, unknown>) => parseGoTemplate(source).render(data);

describe('e-mail templates render as Go html/template does', () => {
  it('prints fields and nested user metadata, nothing for a missing key', () => {
    expect(
      render('<p>{{ .Email }} {{ .Data.phrase }}{{ .Data.none }}</p>', {
        Email: 'a@example.com',
        Data: { phrase: 'blue' },
      }),
    ).toBe('<p>a@example.com blue</p>');
  });

  it('escapes values in text as html/template does, + and quotes included', () => {
    expect(render('<p>{{ .Data.phrase }}</p>', { Data: { phrase: `<b>"1+1" & 'x'</b>` } })).toBe(
      '<p>&lt;b&gt;&#34;1&#43;1&#34; &amp; &#39;x&#39;&lt;/b&gt;</p>',
    );
  });

  it('keeps a link whole in href, escaping & for the attribute, and blocks a javascript: URL', () => {
    const link =
      'http://localhost:54321/auth/v1/verify?token=abc&type=signup&redirect_to=http://localhost:5173';
    expect(render('<a href="{{ .ConfirmationURL }}">go</a>', { ConfirmationURL: link })).toBe(
      `<a href="${link.replaceAll('&', '&amp;')}">go</a>`,
    );
    expect(
      render('<a href="{{ .ConfirmationURL }}">go</a>', { ConfirmationURL: 'javascript:alert(1)' }),
    ).toBe('<a href="#ZgotmplZ">go</a>');
  });

  it('percent-encodes a value placed in a link’s query', () => {
    expect(
      render('<a href="{{ .SiteURL }}/confirm?token_hash={{ .TokenHash }}">x</a>', {
        SiteURL: 'http://s',
        TokenHash: 'a b&c',
      }),
    ).toBe('<a href="http://s/confirm?token_hash=a%20b%26c">x</a>');
  });

  it('chooses if / else if / else branches by Go truth and trims around - markers', () => {
    const source =
      '{{ if .Data.phrase -}} phrase: {{ .Data.phrase }} {{- else if .Token }}code{{ else }}none{{ end }}';
    expect(render(source, { Data: { phrase: 'blue' } })).toBe('phrase: blue');
    expect(render(source, { Data: {}, Token: '123456' })).toBe('code');
    expect(render(source, { Data: { phrase: '' } })).toBe('none');
  });

  it('drops template comments and HTML comments', () => {
    expect(render('a{{/* note */}}b<!-- hidden -->c', {})).toBe('abc');
  });
});

describe('templates outside the supported subset are refused by name when parsed', () => {
  it.each([
    ['{{ range .Data }}x{{ end }}', '{{ range .Data }} is not supported by the local stack'],
    ['{{ .Email | printf "%s" }}', '{{ .Email | printf "%s" }} is not supported by the local stack'],
    ['{{ if eq .Email "a" }}x{{ end }}', '{{ if eq .Email "a" }} is not supported by the local stack'],
    ['<script>var a = "{{ .Email }}"</script>', '{{ .Email }} inside a <script> element is not supported'],
    ['<a onclick="{{ .Email }}">x</a>', '{{ .Email }} inside the onclick attribute is not supported'],
    [
      '<a href={{ .ConfirmationURL }}>x</a>',
      'inside a tag outside a quoted attribute value is not supported',
    ],
    ['{{ if .Email }}x', 'unexpected EOF'],
    ['x{{ end }}', 'unexpected {{ end }}'],
  ])('%s', (source, refusal) => {
    expect(() => parseGoTemplate(source)).toThrow(refusal);
  });
});
