/**
 * Reading SQL text for tenant scope (security test plan item 24): which tenant tables a
 * statement names, and whether each is held to one user by a `user_id` predicate. Deliberately
 * simple and strict: a reference passes only when its alias (or table name) has `user_id`
 * compared with `=`, `IN (…)` or `= ANY(…)` (a parameter, or another table's `user_id` in a
 * join), or, for an INSERT, when `user_id` is in its column list.
 */

/** Where the statement was read: a placeholder stands for a piece of SQL the reader could not resolve. */
export const UNRESOLVED = '⟨?⟩';

export interface TableReference {
  table: string;
  /** The alias the statement gives it, or null (then the table name qualifies its columns). */
  alias: string | null;
  kind: 'read' | 'insert' | 'update' | 'delete';
  /** INSERT only: the column list as written, or null when there is none. */
  insertColumns: string | null;
}

const NOT_AN_ALIAS = new Set(
  'where set on using left right inner outer full cross join natural lateral group order limit offset returning union except intersect for window having values select default do from as'.split(
    ' ',
  ),
);

const REFERENCE =
  /\b(from|join|update|into)\s+(?:only\s+)?(?:[a-z_][a-z0-9_]*\s*\.\s*)?([a-z_][a-z0-9_]*)(?:\s+(?:as\s+)?([a-z_][a-z0-9_]*))?/gi;

/** The SQL without comments and with every quoted literal emptied (a table name inside a string is no reference). */
export function normalizeSql(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/\s+/g, ' ');
}

/** Every reference to one of `tables` in the statement (FROM, JOIN, UPDATE, INSERT INTO, DELETE FROM). */
export function tableReferences(sql: string, tables: ReadonlySet<string>): TableReference[] {
  const text = normalizeSql(sql);
  const references: TableReference[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const keyword = match[1].toLowerCase();
    const table = match[2].toLowerCase();
    if (!tables.has(table)) continue;
    const aliasWord = match[3]?.toLowerCase() ?? null;
    const alias = aliasWord !== null && !NOT_AN_ALIAS.has(aliasWord) ? aliasWord : null;
    const before = text.slice(Math.max(0, (match.index ?? 0) - 10), match.index).toLowerCase();
    const kind =
      keyword === 'into'
        ? 'insert'
        : keyword === 'update'
          ? 'update'
          : keyword === 'from' && /\bdelete\s*$/.test(before)
            ? 'delete'
            : 'read';
    let insertColumns: string | null = null;
    if (kind === 'insert') {
      const rest = text.slice((match.index ?? 0) + match[0].length - (match[3]?.length ?? 0));
      insertColumns = /^\s*\(([^)]*)\)/.exec(rest)?.[1] ?? null;
    }
    references.push({ table, alias: kind === 'insert' ? null : alias, kind, insertColumns });
  }
  return references;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `user_id` of the reference is compared with something (a parameter, a constant, another table's user_id). */
export function isScoped(sql: string, reference: TableReference): boolean {
  if (reference.kind === 'insert')
    return reference.insertColumns !== null && /\buser_id\b/i.test(reference.insertColumns);
  const text = normalizeSql(sql);
  const qualifier = escape(reference.alias ?? reference.table);
  const column = `(?:\\b${qualifier}\\s*\\.\\s*|(?<![\\w.]))user_id`;
  const compared = new RegExp(`${column}\\s*(?:=|\\bin\\s*\\()|=\\s*${column}\\b`, 'i');
  return compared.test(text);
}

/** The references of the statement that no `user_id` predicate scopes. */
export function unscopedReferences(sql: string, tables: ReadonlySet<string>): TableReference[] {
  return tableReferences(sql, tables).filter((reference) => !isScoped(sql, reference));
}
