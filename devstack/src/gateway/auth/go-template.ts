/**
 * The part of Go's `html/template` that Auth's e-mail templates use (GoTrue parses subjects and bodies with
 * it, internal/mailer/templatemailer/template.go): `{{ .Field.Path }}`, `{{ if }}` / `{{ else if }}` /
 * `{{ else }}` / `{{ end }}`, `{{/* comments *\/}}` and the `{{-` / `-}}` trim markers, with html/template's
 * contextual escaping in text and in quoted attribute values (URL attributes filtered and normalised).
 * Anything else (range, with, functions, pipelines, variables, actions in scripts, styles or unquoted
 * attributes) is refused by name when the template is parsed, so the stack stops at start.
 */

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'field'; path: string[]; escape: (value: string) => string }
  | { kind: 'if'; branches: { path: string[]; body: Node[] }[]; otherwise: Node[] };

export interface GoTemplate {
  render(data: Record<string, unknown>): string;
}

export class TemplateError extends Error {}

const fieldPattern = /^\.(?:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)?$/;
const supported = '{{ .Field }}, {{ if .Field }}, {{ else }}, {{ else if .Field }}, {{ end }} and comments';

/** html/template's htmlEscaper (and attrEscaper for quoted attributes). */
function escapeHtml(value: string): string {
  return value.replace(/[\0"'&+<>]/g, (character) =>
    character === '\0'
      ? '\uFFFD'
      : ({ '"': '&#34;', "'": '&#39;', '&': '&amp;', '+': '&#43;', '<': '&lt;', '>': '&gt;' } as const)[
          character as '"'
        ],
  );
}

/** html/template's URL processing: `normalise` keeps reserved characters and `%` (urlNormalizer), else all are encoded (urlEscaper). */
function processUrl(value: string, normalise: boolean): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const character = String.fromCharCode(byte);
    const unreserved = /[A-Za-z0-9\-._~]/.test(character);
    const reserved = normalise && /[!#$&*+,/:;=?@[\]%]/.test(character);
    out += unreserved || reserved ? character : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** html/template's urlFilter: a URL with a scheme other than http, https or mailto becomes `#ZgotmplZ`. */
function filterUrl(value: string): string {
  const scheme = /^([^/?#]*?):/.exec(value)?.[1];
  return scheme === undefined || /^(https?|mailto)$/i.test(scheme) ? value : '#ZgotmplZ';
}

const urlAttributes = new Set(['href', 'src', 'action', 'formaction', 'cite', 'background', 'poster']);

/** The escaper for an action placed after `before` (the template's literal text so far), or a refusal. */
function escaperAt(before: string, action: string): (value: string) => string {
  const lastOpen = before.lastIndexOf('<');
  const lastClose = before.lastIndexOf('>');
  const openElement = /<(script|style)\b[^>]*>(?![\s\S]*<\/\1)/i.exec(before);
  if (openElement) throw new TemplateError(`${action} inside a <${openElement[1]}> element is not supported`);
  if (lastOpen <= lastClose || !/^<\/?[A-Za-z]/.test(before.slice(lastOpen))) return escapeHtml;
  const attribute = /([^\s"'<>/=]+)\s*=\s*(["'])([^"']*)$/.exec(before.slice(lastOpen));
  if (!attribute)
    throw new TemplateError(`${action} inside a tag outside a quoted attribute value is not supported`);
  const name = (attribute[1] ?? '').toLowerCase();
  if (name === 'style' || name.startsWith('on'))
    throw new TemplateError(`${action} inside the ${name} attribute is not supported`);
  if (!urlAttributes.has(name)) return escapeHtml;
  const urlSoFar = attribute[3] ?? '';
  if (urlSoFar === '') return (value) => escapeHtml(processUrl(filterUrl(value), true));
  if (/[?#]/.test(urlSoFar)) return (value) => escapeHtml(processUrl(value, false));
  return (value) => escapeHtml(processUrl(value, true));
}

/** Go's fmt.Sprint of a JSON value as html/template prints it (nothing for a missing key or null). */
function printed(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return `[${value.map(printed).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `map[${entries.map(([key, item]) => `${key}:${printed(item)}`).join(' ')}]`;
  }
  return String(value);
}

/** Go's truth: false, 0, nil and empty strings, arrays and maps are false. */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

function lookup(data: Record<string, unknown>, path: string[]): unknown {
  let value: unknown = data;
  for (const name of path) {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new TemplateError(`can't evaluate field ${name} in type ${typeof value}`);
    }
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

function fieldPath(text: string, action: string): string[] {
  if (!fieldPattern.test(text)) {
    throw new TemplateError(`${action} is not supported by the local stack (it renders ${supported})`);
  }
  return text.split('.').filter(Boolean);
}

/** Parses `source`; a template outside the subset throws a TemplateError naming the action. */
export function parseGoTemplate(source: string): GoTemplate {
  // html/template drops HTML comments from the template's text.
  const actions = [...source.matchAll(/\{\{(-\s)?([\s\S]*?)(\s-)?\}\}/g)];
  const root: Node[] = [];
  const stack: { nodes: Node[]; node?: Extract<Node, { kind: 'if' }>; inElse: boolean }[] = [
    { nodes: root, inElse: false },
  ];
  let literal = '';
  let position = 0;
  let trimNext = false;
  const current = () => stack[stack.length - 1] as (typeof stack)[number];
  const target = () => {
    const frame = current();
    if (!frame.node) return frame.nodes;
    return frame.inElse ? frame.node.otherwise : (frame.node.branches.at(-1)?.body ?? frame.nodes);
  };
  const addText = (raw: string) => {
    const text = raw.replace(/<!--[\s\S]*?-->/g, '');
    literal += text;
    if (text) target().push({ kind: 'text', text });
  };
  for (const match of actions) {
    const [whole, trimLeft, inner = '', trimRight] = match;
    let text = source.slice(position, match.index);
    if (trimNext) text = text.trimStart();
    if (trimLeft) text = text.trimEnd();
    addText(text);
    position = match.index + whole.length;
    trimNext = Boolean(trimRight);
    const body = inner.trim();
    const action = `{{ ${body} }}`;
    if (/^\/\*[\s\S]*\*\/$/.test(body)) continue;
    const [keyword = '', ...rest] = body.split(/\s+/);
    const argument = rest.join(' ');
    if (keyword === 'if') {
      const node: Extract<Node, { kind: 'if' }> = {
        kind: 'if',
        branches: [{ path: fieldPath(argument, action), body: [] }],
        otherwise: [],
      };
      target().push(node);
      stack.push({ nodes: [], node, inElse: false });
    } else if (keyword === 'else') {
      const frame = current();
      if (!frame.node || frame.inElse) throw new TemplateError(`unexpected ${action}`);
      if (rest[0] === 'if')
        frame.node.branches.push({ path: fieldPath(rest.slice(1).join(' '), action), body: [] });
      else if (argument === '') frame.inElse = true;
      else throw new TemplateError(`${action} is not supported by the local stack (it renders ${supported})`);
    } else if (keyword === 'end' && argument === '') {
      if (stack.length === 1) throw new TemplateError('unexpected {{ end }}');
      stack.pop();
    } else {
      target().push({ kind: 'field', path: fieldPath(body, action), escape: escaperAt(literal, action) });
    }
  }
  let tail = source.slice(position);
  if (trimNext) tail = tail.trimStart();
  addText(tail);
  if (stack.length > 1) throw new TemplateError('unexpected EOF: an {{ if }} has no {{ end }}');

  const renderNodes = (nodes: Node[], data: Record<string, unknown>): string =>
    nodes
      .map((node) => {
        if (node.kind === 'text') return node.text;
        if (node.kind === 'field') return node.escape(printed(lookup(data, node.path)));
        const branch = node.branches.find(({ path }) => truthy(lookup(data, path)));
        return renderNodes(branch ? branch.body : node.otherwise, data);
      })
      .join('');
  return { render: (data) => renderNodes(root, data) };
}
