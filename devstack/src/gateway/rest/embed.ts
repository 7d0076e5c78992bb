import type { Catalog, Relation, Relationship } from './catalog';
import { RestError, restErrors } from './errors';
import { closestMatch } from './fuzzy-hint';
import { checkQueryColumns } from './plan';
import type { EmbedItem, Level } from './query-grammar';
import { levelSelectSql, levelTailSql, quoteIdent, type Joins, type SqlParams } from './sql';

/**
 * Resource embedding as PostgREST's (Plan.hs `findRel`, Query/QueryBuilder.hs `getJoin`): each embedded
 * table is a lateral subquery of the row it hangs from, run in the same statement as the caller's role,
 * so row-level security decides what every level shows.
 */

const oneColumn = (relationship: Relationship, side: 0 | 1, name: string) =>
  relationship.cardinality !== 'many-to-many' &&
  relationship.columns.length === 1 &&
  relationship.columns[0]?.[side] === name;

/** Whether a relationship is the one `target!hint` names (Plan.hs `findRel`). */
function named(relationship: Relationship, target: string, hint: string | undefined): boolean {
  if (relationship.function !== undefined) return relationship.function === target;
  const { foreignTable, cardinality, constraint } = relationship;
  const byForeignKey = cardinality !== 'many-to-many';
  if (relationship.isSelf) {
    // One foreign key, two directions: the table's name reads it one-to-many, the column's many-to-one.
    if (hint === undefined)
      return (
        (foreignTable === target && cardinality === 'one-to-many') ||
        (oneColumn(relationship, 0, target) && cardinality === 'many-to-one')
      );
    return foreignTable === target && cardinality === 'one-to-many' && oneColumn(relationship, 1, hint);
  }
  if (hint === undefined)
    return (
      foreignTable === target || (byForeignKey && constraint === target) || oneColumn(relationship, 0, target)
    );
  return (
    foreignTable === target &&
    ((byForeignKey && constraint === hint) ||
      oneColumn(relationship, 0, hint) ||
      oneColumn(relationship, 1, hint) ||
      relationship.junction?.table === hint)
  );
}

const list = (columns: string[]) => `(${columns.join(', ')})`;

/** How PGRST201 describes each candidate (Error.hs `compressedRel`). */
function described({ table, foreignTable, cardinality, constraint, columns, junction }: Relationship) {
  const relationship = junction
    ? `${junction.table} using ${constraint}${list(junction.source.map(([column]) => column))} and ${junction.constraint}${list(junction.target.map(([column]) => column))}`
    : `${constraint} using ${table}${list(columns.map(([own]) => own))} and ${foreignTable}${list(columns.map(([, foreign]) => foreign))}`;
  return { cardinality, embedding: `${table} with ${foreignTable}`, relationship };
}

function findRelationship(catalog: Catalog, schema: string, origin: string, embed: EmbedItem): Relationship {
  const candidates = catalog.relationships.get(origin) ?? [];
  const found = candidates.filter((relationship) => named(relationship, embed.name, embed.hint));
  if (found.length === 1 && found[0]) return found[0];
  if (found.length > 1) {
    const hints = found
      .map(
        (relationship) =>
          `'${relationship.foreignTable}!${relationship.junction?.table ?? relationship.constraint}'`,
      )
      .join(', ');
    throw new RestError(
      300,
      'PGRST201',
      `Could not embed because more than one relationship was found for '${origin}' and '${embed.name}'`,
      found.map(described),
      `Try changing '${embed.name}' to one of the following: ${hints}. Find the desired relationship in the 'details' key.`,
    );
  }
  const views = [origin, embed.name].filter((name) => catalog.relations.get(name)?.isView);
  if (views.length) throw restErrors.unsupported(`relationships of views ('${views.join("', '")}')`);
  // Error.hs `noRelBetweenHint`: a similar parent when the origin has no relationship, else a similar child.
  const suggestion = catalog.relationships.has(origin)
    ? closestMatch(
        candidates.map((relationship) => relationship.foreignTable).filter((name) => name !== embed.name),
        embed.name,
        0.33,
      )
    : closestMatch([...catalog.relationships.keys()], origin, 0.33);
  const replaced = catalog.relationships.has(origin) ? embed.name : origin;
  throw new RestError(
    400,
    'PGRST200',
    `Could not find a relationship between '${origin}' and '${embed.name}' in the schema cache`,
    `Searched for a foreign key relationship between '${origin}' and '${embed.name}'${embed.hint === undefined ? '' : ` using the hint '${embed.hint}'`} in the schema '${schema}', but no matches were found.`,
    suggestion === undefined ? null : `Perhaps you meant '${suggestion}' instead of '${replaced}'.`,
  );
}

export interface EmbedContext {
  catalog: Catalog;
  schema: string;
  params: SqlParams;
  /** Filters, order and page of embedded levels, by path (ParsedQuery's `nested`). */
  nested: Map<string, Level>;
  /** Numbers the aliases of one statement's subqueries. */
  aliases: { next: number };
}

const noLevel: Level = { where: [], order: [] };

/** The lateral joins of one level's embedded tables, and what its row selects from them. */
export function embedsSql(
  context: EmbedContext,
  parent: { relation: Relation; alias: string },
  embeds: EmbedItem[],
  path: string[] = [],
): Joins {
  const joins: Joins = { sql: '', selects: [] };
  const names = embeds.map((embed) => embed.alias ?? embed.name);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  // PostgREST aliases an embedded table `<table>_<depth>` and its subquery `<parent>_<name>_<depth>`
  // (Plan.hs), so the same name twice fails in Postgres, and Postgres names the alias of an unknown column.
  const depth = path.length + 1;
  if (twice !== undefined)
    throw new RestError(
      400,
      '42712',
      `table name "${parent.relation.name}_${twice}_${depth}" specified more than once`,
    );
  for (const embed of embeds) {
    const relationship = findRelationship(context.catalog, context.schema, parent.relation.name, embed);
    const target = context.catalog.relations.get(relationship.foreignTable);
    if (!target) throw restErrors.unsupported(`embedding '${embed.name}'`);
    const number = context.aliases.next++;
    const alias = `_t${number}`;
    const joined = `_e${number}`;
    const name = embed.alias ?? embed.name;
    const levelPath = [...path, name];
    const level =
      context.nested.get(levelPath.join('.')) ??
      context.nested.get([...path, embed.name].join('.')) ??
      noLevel;
    // `rel(count)`: PostgREST's aggregate count over the embedded rows.
    if (
      embed.select?.some((item) => item.column === 'count' && !item.path.length) &&
      !target.columns.has('count')
    )
      throw restErrors.unsupported(`aggregate in select: '${embed.name}(count)'`);
    checkQueryColumns(
      target,
      { select: embed.select, ...level },
      { write: false, qualifier: `${target.name}_${depth}` },
    );
    const scope = { schema: context.schema, computed: target.computed, types: target.types, alias };
    const inner = embedsSql(context, { relation: target, alias }, embed.embeds, levelPath);
    const table = (relation: string) => `${quoteIdent(context.schema)}.${quoteIdent(relation)}`;
    let from = `${table(target.name)} ${alias}`;
    let conditions: string[] = [];
    if (relationship.function !== undefined) {
      // The function called on the parent's row (Query/QueryBuilder.hs `fromF` for a computed relationship).
      from = `${table(relationship.function)}(${parent.alias}) ${alias}`;
    } else if (relationship.junction) {
      const junction = `_j${number}`;
      from += `, ${table(relationship.junction.table)} ${junction}`;
      conditions = [
        ...relationship.junction.source.map(
          ([own, parentColumn]) =>
            `${junction}.${quoteIdent(own)} = ${parent.alias}.${quoteIdent(parentColumn)}`,
        ),
        ...relationship.junction.target.map(
          ([own, targetColumn]) => `${junction}.${quoteIdent(own)} = ${alias}.${quoteIdent(targetColumn)}`,
        ),
      ];
    } else {
      conditions = relationship.columns.map(
        ([own, foreign]) => `${alias}.${quoteIdent(foreign)} = ${parent.alias}.${quoteIdent(own)}`,
      );
    }
    const selected = levelSelectSql(embed.select, context.params, scope, inner);
    const subquery = `select ${selected} from ${from}${inner.sql}${levelTailSql(level, context.params, scope, conditions)}`;
    const toOne = relationship.cardinality === 'many-to-one' || relationship.cardinality === 'one-to-one';
    const inner_ = embed.join === 'inner';
    const kind = inner_ ? 'inner' : 'left';
    const empty = embed.select?.length === 0 && embed.embeds.length === 0;
    if (embed.spread) {
      if (!toOne) throw restErrors.unsupported(`spreading a to-many relationship: '...${embed.name}'`);
      joins.sql += ` ${kind} join lateral (${subquery}) ${joined} on true`;
      if (!empty) joins.selects.push(`${joined}.*`);
    } else if (toOne) {
      joins.sql += ` ${kind} join lateral (select row_to_json(_r) as value from (${subquery}) _r) ${joined} on true`;
      if (!empty) joins.selects.push(`${joined}.value as ${quoteIdent(name)}`);
    } else {
      joins.sql += ` ${kind} join lateral (select json_agg(_r) as value from (${subquery}) _r) ${joined} on ${inner_ ? `${joined}.value is not null` : 'true'}`;
      if (!empty) joins.selects.push(`coalesce(${joined}.value, '[]') as ${quoteIdent(name)}`);
    }
  }
  return joins;
}
