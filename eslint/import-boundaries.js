import path from 'node:path';

/**
 * Import boundaries by the imported file's path, however the import is spelled (an alias or a relative path):
 * the floors of the house (the app over shared code, features side by side, the domain module under both the
 * app and the Edge Functions, the local stack beside them all). docs/architecture.md §1 draws them.
 */
const features = /^src\/features\/([^/]+)\//;
const sharedCode = /^src\/(components|lib|config|types)\//;

/** @type {Array<(from: string, to: string) => string | undefined>} */
const boundaries = [
  (from, to) => {
    const [, fromFeature] = features.exec(from) ?? [];
    const [, toFeature] = features.exec(to) ?? [];
    if (fromFeature && toFeature && fromFeature !== toFeature)
      return 'A feature does not import another feature: move shared code to components/ or lib/.';
  },
  (from, to) => {
    if (features.test(from) && to.startsWith('src/app/')) return 'Features do not import the app layer.';
  },
  (from, to) => {
    if (sharedCode.test(from) && (features.test(to) || to.startsWith('src/app/')))
      return 'Shared code does not import features or the app.';
  },
  (from, to) => {
    if (
      from.startsWith('devstack/') &&
      /^(src\/|supabase\/functions\/|packages\/|stubs\/|devstack\.config)/.test(to)
    )
      return 'The local stack knows nothing of the app: devstack/ imports no app code (the app plugs in through devstack.config.ts).';
  },
  (from, to) => {
    if (from.startsWith('src/') && to.startsWith('supabase/functions/'))
      return 'The app does not import Edge Function code: what both use lives in the domain module, packages/domain/.';
  },
  (from, to) => {
    if (
      from.startsWith('supabase/functions/') &&
      !/^(supabase\/functions|supabase\/types|packages\/domain)\//.test(to)
    )
      return 'Edge Functions import from outside supabase/functions/ only the domain module and the generated types.';
  },
  (from, to) => {
    if (from.startsWith('packages/domain/') && !to.startsWith('packages/domain/'))
      return 'The domain module imports nothing but zod and itself, so the browser and Deno load it alike.';
  },
];

/**
 * @param {{ root: string, aliases: Record<string, string> }} options project root, and alias prefix → folder
 * @returns {import('eslint').Rule.RuleModule}
 */
export function importBoundariesRule({ root, aliases }) {
  /**
   * The imported file relative to the root, without its extension; undefined for packages.
   * @param {string} filename
   * @param {string} specifier
   */
  function target(filename, specifier) {
    const alias = Object.entries(aliases).find(([prefix]) => specifier.startsWith(prefix));
    let absolute;
    if (alias) absolute = path.join(root, alias[1], specifier.slice(alias[0].length));
    else if (specifier.startsWith('.')) absolute = path.resolve(path.dirname(filename), specifier);
    else return undefined;
    return path
      .relative(root, absolute)
      .split(path.sep)
      .join('/')
      .replace(/\.(tsx?|jsx?)$/, '');
  }

  return {
    meta: {
      type: 'problem',
      docs: { description: 'Import boundaries between the floors of the project, by file path' },
      schema: [],
      messages: { crossing: '{{reason}}' },
    },
    create(context) {
      const from = path.relative(root, context.filename).split(path.sep).join('/');
      /** @param {{ source?: import('estree').Node | null }} node */
      function check(node) {
        if (node.source?.type !== 'Literal' || typeof node.source.value !== 'string') return;
        const to = target(context.filename, node.source.value);
        if (to === undefined) return;
        for (const boundary of boundaries) {
          const reason = boundary(from, to);
          if (reason) return context.report({ node: node.source, messageId: 'crossing', data: { reason } });
        }
      }
      return {
        ImportDeclaration: check,
        ExportNamedDeclaration: check,
        ExportAllDeclaration: check,
        ImportExpression: check,
      };
    },
  };
}
