import { CROSS_USER_FUNCTIONS } from '../src/migrations/1765400000000-rls-every-table';
import { TENANT_DEFINER_FUNCTIONS } from '../src/migrations/1765520000000-order-search-and-counts';
import { SYNCED_UPSERTS } from '../src/repositories/synced-tables';
import { CROSS_TENANT_ALLOWLIST } from './tenant-scope/cross-tenant-allowlist';
import {
  scanSources,
  tenantModelFromEntities,
  type ScanResult,
  type SourceText,
  type TenantModel,
} from './tenant-scope/source-scan';
import { applicationSources, entitySources } from './tenant-scope/sources';
import { tableReferences, unscopedReferences } from './tenant-scope/sql-scope';

/**
 * Security test plan item 24, statically: every statement on a tenant table (one with a user_id
 * column, read from the entities) holds it to one user, every public repository method that
 * reads or writes tenant rows takes a userId, and the few cross-tenant statements are the
 * allowlist's, each with its reason (ADR 0015).
 */
const REPOSITORIES = /^libs\/db\/src\/repositories\//;
/** Every SECURITY DEFINER function the app role may call: the cross-user ones and those that read only the scoped user. */
const DEFINER_FUNCTIONS = [...CROSS_USER_FUNCTIONS, ...TENANT_DEFINER_FUNCTIONS];
const model = tenantModelFromEntities(entitySources());
let scan: ScanResult;

beforeAll(() => {
  scan = scanSources(applicationSources(), model, {
    repositoryPaths: REPOSITORIES,
    definerFunctions: DEFINER_FUNCTIONS,
  });
});

const allowed = new Set(CROSS_TENANT_ALLOWLIST.map((entry) => entry.owner));
const describeFinding = (finding: ScanResult['findings'][number]) =>
  `${finding.owner} (${finding.path}:${finding.line}): ${finding.problem}`;

describe('tenant tables', () => {
  it('are the tables whose entity has a user_id column', () => {
    for (const table of [
      'order_record',
      'order_profit',
      'match_run',
      'etsy_receipt',
      'etsy_receipt_line',
      'etsy_payment',
      'etsy_ledger_entry',
      'printify_order',
      'printify_order_line',
      'provider_connection',
      'sync_run',
      'dashboard_day',
      'order_count_day',
      'cost_kind_day',
      'product_day',
    ]) {
      expect(model.tenantTables).toContain(table);
    }
    expect(model.tenantTables).not.toContain('fx_rate');
    expect(model.tenantTables).not.toContain('app_user');
  });
});

describe('the application code', () => {
  it('has no statement on a tenant table without a user_id predicate, and no unscoped public repository method, outside the allowlist', () => {
    const unexpected = scan.findings.filter((finding) => !allowed.has(finding.owner));
    expect(unexpected.map(describeFinding)).toEqual([]);
  });

  it('is really read: the order reads and writes, the sync upserts and the profit writer are seen as tenant statements', () => {
    for (const owner of [
      'OrderViewsRepository.listPage',
      // The figures' reads as data (SqlRead), run alone or as one statement (readsAsOne).
      'dashboardSumsRead',
      'analyticsSeriesRead',
      'analyticsCompositionRead',
      'OrderCountsRepository.counts',
      'OrderCountsRepository.refreshDays',
      'OrderRecordsRepository.writeChanges',
      'OrderEditsService.unmatchRecord',
      'OrderEditsService.matchByHand',
      'OrderEditsService.removePrintifyOrder',
      'EtsyOrdersRepository.replaceLines',
      'OrderProfitsRepository.write',
      'ConnectionsRepository.remove',
    ]) {
      expect(scan.tenantOwners).toContain(owner);
    }
  });

  // Built from the entities at load time, so the source scan above cannot fold them: checked here as issued.
  it.each(Object.entries(SYNCED_UPSERTS))('names the owner in the generated %s upsert', (_name, upsert) => {
    expect(tableReferences(upsert.sql, model.tenantTables).map((reference) => reference.kind)).toEqual(['insert']);
    expect(unscopedReferences(upsert.sql, model.tenantTables)).toEqual([]);
  });

  it('keeps no stale allowlist entry: each names a method that exists and still needs it', () => {
    const needed = new Set([
      ...scan.findings.map((finding) => finding.owner),
      ...scan.definerCalls.map((call) => call.owner),
    ]);
    expect(
      CROSS_TENANT_ALLOWLIST.filter((entry) => !scan.owners.has(entry.owner)).map(
        (entry) => `${entry.owner}: no such method`,
      ),
    ).toEqual([]);
    expect(
      CROSS_TENANT_ALLOWLIST.filter((entry) => !needed.has(entry.owner)).map(
        (entry) => `${entry.owner}: nothing to allow any more`,
      ),
    ).toEqual([]);
    expect(CROSS_TENANT_ALLOWLIST.every((entry) => entry.why.length > 20)).toBe(true);
  });

  it('sets app.user_id only in the tenant-scope helper, and names app.all_tenants nowhere (the policies do not honour it)', () => {
    const helper = 'libs/db/src/repositories/tenant-scope.ts';
    expect(
      scan.scopeSettings
        .filter((site) => site.path !== helper || site.setting !== 'app.user_id')
        .map((site) => `${site.owner} (${site.path}) names ${site.setting}`),
    ).toEqual([]);
  });

  it('calls each cross-user SECURITY DEFINER function only from the allowlisted method that names it, and each such entry calls its own', () => {
    const mayCall = new Map(
      CROSS_TENANT_ALLOWLIST.filter((entry) => entry.definer).map((entry) => [entry.owner, entry.definer]),
    );
    expect(
      scan.definerCalls
        .filter((call) => mayCall.get(call.owner) !== call.fn)
        .map((call) => `${call.owner} (${call.path}) calls ${call.fn}`),
    ).toEqual([]);
    const called = new Set(scan.definerCalls.map((call) => `${call.owner} ${call.fn}`));
    expect(
      [...mayCall]
        .filter(([owner, fn]) => !called.has(`${owner} ${fn}`))
        .map(([owner, fn]) => `${owner} never calls ${fn}`),
    ).toEqual([]);
    expect([...DEFINER_FUNCTIONS].sort()).toEqual([...new Set(mayCall.values())].sort());
  });
});

describe('the check itself catches', () => {
  const tables = model.tenantTables;

  it.each([
    ['a read by id only', 'SELECT * FROM order_record WHERE id = $1'],
    [
      'a joined table held by nothing',
      'SELECT p.* FROM order_record r JOIN order_profit p ON p.order_record_id = r.id WHERE r.user_id = $1',
    ],
    ['an update by id', 'UPDATE match_run SET status = $2 WHERE id = $1'],
    ['a delete by id', 'DELETE FROM order_profit WHERE order_record_id = $1'],
    ['an insert without the owner', 'INSERT INTO order_record (id, status) VALUES ($1, $2)'],
    ['an insert from a select', 'INSERT INTO order_record SELECT * FROM elsewhere'],
    [
      'a cross-tenant union',
      "SELECT user_id FROM order_profit WHERE figures = 'rate_unavailable' UNION SELECT user_id FROM order_record",
    ],
    ['a look-alike column', 'SELECT * FROM etsy_receipt WHERE buyer_user_id = $1'],
    [
      'a predicate only in a comment or a string',
      "SELECT * FROM printify_order -- WHERE user_id = $1\n WHERE note = 'user_id = 1'",
    ],
    [
      'a user_id predicate on another alias',
      'SELECT * FROM etsy_receipt e JOIN etsy_receipt_line l ON l.receipt_id = e.receipt_id WHERE e.user_id = $1',
    ],
  ])('%s', (_label, sql) => {
    expect(unscopedReferences(sql, tables)).not.toEqual([]);
  });

  it.each([
    ['a parameter', 'SELECT * FROM order_record WHERE user_id = $1 AND id = $2'],
    ['an alias', 'SELECT r.id FROM order_record r WHERE r.user_id = $1'],
    [
      'a join on the owner',
      'SELECT p.* FROM order_record r JOIN order_profit p ON p.order_record_id = r.id AND p.user_id = r.user_id WHERE r.user_id = $1',
    ],
    ['a list of owners', 'DELETE FROM order_profit WHERE user_id = ANY($1::uuid[])'],
    [
      'an insert naming the owner',
      'INSERT INTO order_record (user_id, status) SELECT $1, s.status FROM jsonb_to_recordset($2::jsonb) AS s(status text)',
    ],
    ['a table that is not a tenant table', 'SELECT * FROM fx_rate WHERE rate_date = $1'],
  ])('and lets pass %s', (_label, sql) => {
    expect(unscopedReferences(sql, tables)).toEqual([]);
  });

  it('every kind of statement in a repository, and a public method that takes no userId', () => {
    const result = scanFixture(`
      import type { Repository } from 'typeorm';
      const BY_ID = \`SELECT * FROM order_record WHERE id = $1\`;
      const LOOKUPS = [{ receipt: \`(SELECT x FROM etsy_receipt src WHERE src.receipt_id = e.receipt_id)\` }];
      const where = (column: string) => \`\${column} = $1\`;
      export class FixtureRepository {
        private readonly runs: Repository<MatchRunEntity>;
        constructor(private readonly db: Db) { this.runs = db.getRepository(MatchRunEntity); }
        rawById(id: string) { return this.db.query(BY_ID, [id]); }
        rawBuilt(userId: string, id: string) { return this.db.query(\`UPDATE order_profit SET figures = 'ok' WHERE \${where('order_record_id')}\`, [id]); }
        findById(userId: string, id: string) { return this.runs.findOne({ where: { id } }); }
        deleteVia(id: string) { return this.db.getRepository(OrderRecordEntity).delete({ id }); }
        builder(userId: string) { return this.runs.createQueryBuilder('run').where('run.status = :status', { status: 'queued' }).getMany(); }
        async publicWithoutUser(id: string) { return this.scopedHelper('00000000-0000-0000-0000-000000000000', id); }
        private scopedHelper(userId: string, id: string) { return this.db.query('SELECT * FROM order_record WHERE user_id = $1 AND id = $2', [userId, id]); }
      }
    `);
    const problems = result.findings.map((finding) => `${finding.owner}: ${finding.problem}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        'FixtureRepository.rawById: read of order_record without a user_id predicate',
        'FixtureRepository.rawBuilt: update of order_profit without a user_id predicate',
        'FixtureRepository.findById: findOne() on match_run without userId in its criteria',
        'FixtureRepository.deleteVia: delete() on order_record without userId in its criteria',
        'FixtureRepository.builder: query builder on match_run without run.user_id in its conditions',
        'libs/db/src/repositories/fixture.repository.ts#LOOKUPS: SQL fragment: etsy_receipt has no user_id predicate',
        'FixtureRepository.publicWithoutUser: public repository method reads or writes tenant rows but takes no userId',
        'FixtureRepository.rawById: public repository method reads or writes tenant rows but takes no userId',
        'FixtureRepository.deleteVia: public repository method reads or writes tenant rows but takes no userId',
      ]),
    );
    expect(problems).toHaveLength(9);
  });

  it('nothing in the same repository written scoped', () => {
    const result = scanFixture(`
      import type { Repository } from 'typeorm';
      const SIDES = (alias: string) => \`\${alias}.user_id\`;
      const LOOKUPS = [{ receipt: \`(SELECT x FROM etsy_receipt src WHERE src.user_id = e.user_id AND src.receipt_id = e.receipt_id)\` }];
      export interface Scope { userId: string; shopId: string }
      export class FixtureRepository {
        private readonly runs: Repository<MatchRunEntity>;
        constructor(private readonly db: Db) { this.runs = db.getRepository(MatchRunEntity); }
        rawById(userId: string, id: string) { return this.db.query(\`SELECT * FROM order_record r WHERE \${SIDES('r')} = $1 AND r.id = $2\`, [userId, id]); }
        findById(userId: string, id: string) { return this.runs.findOne({ where: { id, userId } }); }
        deleteVia(scope: Scope) { return this.db.getRepository(OrderRecordEntity).delete({ ...scope }); }
        builder(userId: string) { return this.runs.createQueryBuilder('run').where('run.user_id = :userId', { userId }).getMany(); }
      }
    `);
    expect(result.findings).toEqual([]);
  });
});

function scanFixture(text: string): ScanResult {
  const sources: SourceText[] = [{ path: 'libs/db/src/repositories/fixture.repository.ts', text }];
  const fixtureModel: TenantModel = { tenantTables: model.tenantTables, entityTables: model.entityTables };
  return scanSources(sources, fixtureModel, { repositoryPaths: REPOSITORIES });
}
