import type { DataSource } from 'typeorm';
import { Client } from 'pg';
import { withTenant } from '@pod/db';

/**
 * Plan checks for reads that must stay bounded whatever statistics the tables have: the
 * statements a piece of work sends, and the rows PostgreSQL's plan for each actually looked at
 * on a table (EXPLAIN ANALYZE), as the app role in the user's scope, like the product runs them.
 */
export interface SentStatement {
  sql: string;
  params: unknown[];
}

/** Runs `work` and returns its result with every statement it sent whose text matches `matching`. */
export async function statementsSentBy<T>(
  work: () => Promise<T>,
  matching: RegExp,
): Promise<{ result: T; sent: SentStatement[] }> {
  const sent: SentStatement[] = [];
  // At the driver, so plain queries (TypeORM's) and named prepared ones (preparedQuery) both show.
  const prototype = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function (this: unknown, first: unknown, second?: unknown, ...rest: unknown[]) {
    const config = typeof first === 'object' && first !== null ? (first as { text?: unknown; values?: unknown }) : null;
    const sql = config ? config.text : first;
    const params = config ? config.values : second;
    if (typeof sql === 'string' && matching.test(sql) && !/^\s*(START|COMMIT|SET|EXPLAIN)/i.test(sql))
      sent.push({ sql, params: Array.isArray(params) ? params : [] });
    return original.call(this, first, second, ...rest);
  };
  try {
    return { result: await work(), sent };
  } finally {
    prototype.query = original;
  }
}

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

function rowsLookedAt(node: PlanNode, table: string): number {
  const own =
    node['Relation Name'] === table
      ? ((node['Actual Rows'] ?? 0) +
          (node['Rows Removed by Filter'] ?? 0) +
          (node['Rows Removed by Index Recheck'] ?? 0)) *
        (node['Actual Loops'] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsLookedAt(child, table), 0);
}

/**
 * Per statement (its text's first 160 characters), the rows its plan's nodes on `table` looked at
 * over all their loops: what they returned plus what their filters removed.
 */
export async function rowsLookedAtBy(
  dataSource: DataSource,
  userId: string,
  sent: SentStatement[],
  table: string,
): Promise<{ statement: string; lookedAt: number }[]> {
  const looked: { statement: string; lookedAt: number }[] = [];
  for (const { sql, params } of sent) {
    const [row] = await withTenant(dataSource, userId, (manager) =>
      manager.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params),
    );
    const plan = (row['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan;
    looked.push({ statement: sql.replace(/\s+/g, ' ').trim().slice(0, 160), lookedAt: rowsLookedAt(plan, table) });
  }
  return looked;
}
