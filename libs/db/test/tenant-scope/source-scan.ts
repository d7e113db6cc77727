import ts from 'typescript';
import { tableReferences, UNRESOLVED, unscopedReferences } from './sql-scope';

/**
 * Finds, in TypeScript sources, every statement that reaches PostgreSQL — raw SQL passed to
 * `.query()`, TypeORM's `find*`/`exists`/`count`/`update`/`delete`/`insert`/`save` on an
 * entity's repository, and query builders — and tells which of them touch a tenant table
 * without holding it to one user. Purely syntactic (no type checker, so it runs in a second):
 * SQL text is rebuilt by folding constants, local variables and small arrow functions that
 * return SQL; what cannot be resolved becomes UNRESOLVED, which never counts as a predicate.
 */

export interface SourceText {
  path: string;
  text: string;
}

/** The owner of a statement: `Class.method`, a function's name, or `file#CONSTANT` for a top-level fragment. */
export type Owner = string;

export interface Finding {
  owner: Owner;
  path: string;
  line: number;
  problem: string;
}

export interface TenantModel {
  /** Tables with a user_id column. */
  tenantTables: ReadonlySet<string>;
  /** Entity class name → table name. */
  entityTables: ReadonlyMap<string, string>;
}

export interface ScanResult {
  /** Statements on tenant tables without a user_id predicate, public repository methods without a userId. */
  findings: Finding[];
  /** Every owner (method, function) seen in the sources, for the allowlist's staleness check. */
  owners: ReadonlySet<Owner>;
  /** Owners that contain a statement on any of the tenant tables. */
  tenantOwners: ReadonlySet<Owner>;
  /** Where a string names `app.user_id` / `app.all_tenants`. */
  scopeSettings: { owner: Owner; path: string; setting: string }[];
  /** Where SQL calls one of the cross-user SECURITY DEFINER functions (options.definerFunctions). */
  definerCalls: { owner: Owner; path: string; fn: string }[];
}

const REPOSITORY_METHODS = new Set([
  'find',
  'findBy',
  'findOne',
  'findOneBy',
  'findOneOrFail',
  'findOneByOrFail',
  'findAndCount',
  'findAndCountBy',
  'exists',
  'existsBy',
  'count',
  'countBy',
  'sum',
  'average',
  'minimum',
  'maximum',
  'update',
  'delete',
  'softDelete',
  'restore',
  'insert',
  'save',
  'remove',
  'upsert',
  'increment',
  'decrement',
  'createQueryBuilder',
]);
const BUILDER_CONDITIONS = new Set([
  'where',
  'andWhere',
  'orWhere',
  'innerJoin',
  'leftJoin',
  'innerJoinAndSelect',
  'leftJoinAndSelect',
]);

/** Tenant tables and the entity → table map, from the entity classes (`@Entity({ name })` with a `name: 'user_id'` column). */
export function tenantModelFromEntities(sources: readonly SourceText[]): TenantModel {
  const tenantTables = new Set<string>();
  const entityTables = new Map<string, string>();
  for (const source of sources) {
    const file = parse(source);
    file.forEachChild((node) => {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      const table = decoratorArgument(node, 'Entity');
      if (!table) return;
      entityTables.set(node.name.text, table);
      const hasUserId = node.members.some((member) =>
        (ts.canHaveDecorators(member) ? (ts.getDecorators(member) ?? []) : []).some(
          (decorator) =>
            /Column$/.test(calleeName(decorator.expression) ?? '') &&
            objectProperty(firstArgument(decorator.expression), 'name') === 'user_id',
        ),
      );
      if (hasUserId) tenantTables.add(table);
    });
  }
  return { tenantTables, entityTables };
}

export function scanSources(
  sources: readonly SourceText[],
  model: TenantModel,
  options: { repositoryPaths: RegExp; definerFunctions?: readonly string[] },
): ScanResult {
  const files = sources.map(parse);
  const folder = new SqlFolder(files);
  const findings: Finding[] = [];
  const owners = new Set<Owner>();
  const tenantOwners = new Set<Owner>();
  const scopeSettings: ScanResult['scopeSettings'] = [];
  const definerCalls: ScanResult['definerCalls'] = [];
  const definerCall = (options.definerFunctions ?? []).map((fn) => ({ fn, pattern: new RegExp(`\\b${fn}\\s*\\(`) }));

  for (const file of files) {
    const report = (node: ts.Node, problem: string) =>
      findings.push({
        owner: ownerOf(node, file),
        path: file.fileName,
        line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1,
        problem,
      });
    const visit = (node: ts.Node): void => {
      if (isOwnerNode(node)) owners.add(ownerOf(node.body ?? node, file));
      if (ts.isCallExpression(node)) {
        const statement = statementOf(node, folder, model);
        if (statement) {
          if (statement.tables.length > 0) tenantOwners.add(ownerOf(node, file));
          for (const problem of statement.problems) report(node, problem);
        }
      }
      if (ts.isStringLiteralLike(node) || ts.isTemplateExpression(node)) {
        const text = ts.isTemplateExpression(node) ? templateText(node) : node.text;
        for (const setting of ['app.user_id', 'app.all_tenants'])
          if (text.includes(setting)) scopeSettings.push({ owner: ownerOf(node, file), path: file.fileName, setting });
        for (const { fn, pattern } of definerCall)
          if (pattern.test(text)) definerCalls.push({ owner: ownerOf(node, file), path: file.fileName, fn });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }

  // SQL fragments no statement took in (e.g. subqueries kept in a table of lookups) must scope themselves.
  for (const file of files) {
    const visit = (node: ts.Node): void => {
      if (
        (ts.isStringLiteralLike(node) || ts.isTemplateExpression(node)) &&
        !folder.consumed.has(node) &&
        !isInsideConsumed(node, folder.consumed)
      ) {
        const text = ts.isTemplateExpression(node) ? templateText(node) : node.text;
        if (tableReferences(text, model.tenantTables).length > 0) {
          tenantOwners.add(ownerOf(node, file));
          for (const reference of unscopedReferences(text, model.tenantTables)) {
            findings.push({
              owner: ownerOf(node, file),
              path: file.fileName,
              line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1,
              problem: `SQL fragment: ${reference.table} has no user_id predicate`,
            });
          }
        }
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }

  for (const file of files.filter((candidate) => options.repositoryPaths.test(candidate.fileName))) {
    findings.push(...publicMethodsWithoutUserId(file, tenantOwners, folder));
  }
  return { findings, owners, tenantOwners, scopeSettings, definerCalls };
}

interface Statement {
  tables: string[];
  problems: string[];
}

/** The statement a call issues, if it is one: its tenant tables and what is unscoped in it. */
function statementOf(call: ts.CallExpression, folder: SqlFolder, model: TenantModel): Statement | null {
  if (!ts.isPropertyAccessExpression(call.expression)) return null;
  const method = call.expression.name.text;
  if (method === 'query' && call.arguments.length > 0) {
    const sql = folder.fold(call.arguments[0]);
    const tables = tableReferences(sql, model.tenantTables).map((reference) => reference.table);
    const problems = unscopedReferences(sql, model.tenantTables).map((reference) =>
      reference.kind === 'insert'
        ? `INSERT INTO ${reference.table} without user_id`
        : `${reference.kind} of ${reference.table} without a user_id predicate`,
    );
    return { tables, problems };
  }
  if (!REPOSITORY_METHODS.has(method)) return null;
  const target = entityOfCall(call, model);
  if (!target) return null;
  const table = model.entityTables.get(target.entity);
  if (!table || !model.tenantTables.has(table)) return { tables: [], problems: [] };
  if (method === 'createQueryBuilder') {
    const alias = target.args[0] ? folder.fold(target.args[0]) : table;
    const conditions = builderConditions(call).map((argument) => folder.fold(argument));
    const scoped = conditions.some((condition) =>
      new RegExp(`\\b${alias}\\s*\\.\\s*user_id\\s*(=|\\bin\\b)`, 'i').test(condition),
    );
    return {
      tables: [table],
      problems: scoped ? [] : [`query builder on ${table} without ${alias}.user_id in its conditions`],
    };
  }
  const scoped = target.args.some((argument) => mentionsUserId(argument, folder));
  return { tables: [table], problems: scoped ? [] : [`${method}() on ${table} without userId in its criteria`] };
}

/** The entity a TypeORM call works on: `x.getRepository(E).m(…)`, `this.repo.m(…)` (a Repository<E> field), `manager.m(E, …)`. */
function entityOfCall(
  call: ts.CallExpression,
  model: TenantModel,
): { entity: string; args: readonly ts.Expression[] } | null {
  const access = call.expression as ts.PropertyAccessExpression;
  const receiver = access.expression;
  const first = call.arguments[0];
  if (first && ts.isIdentifier(first) && model.entityTables.has(first.text))
    return { entity: first.text, args: call.arguments.slice(1) };
  const entity = repositoryEntity(receiver);
  return entity ? { entity, args: call.arguments } : null;
}

function repositoryEntity(expression: ts.Expression): string | null {
  if (
    ts.isCallExpression(expression) &&
    ts.isPropertyAccessExpression(expression.expression) &&
    expression.expression.name.text === 'getRepository'
  ) {
    const argument = expression.arguments[0];
    return argument && ts.isIdentifier(argument) ? argument.text : null;
  }
  if (ts.isPropertyAccessExpression(expression) && expression.expression.kind === ts.SyntaxKind.ThisKeyword) {
    const cls = enclosing(expression, ts.isClassDeclaration);
    const name = expression.name.text;
    for (const member of cls?.members ?? []) {
      if (ts.isPropertyDeclaration(member) && member.name.getText() === name) {
        const fromType = member.type ? repositoryTypeArgument(member.type) : null;
        if (fromType) return fromType;
        if (member.initializer) return repositoryEntity(member.initializer);
      }
      if (ts.isConstructorDeclaration(member) && member.body) {
        for (const statement of member.body.statements) {
          if (
            ts.isExpressionStatement(statement) &&
            ts.isBinaryExpression(statement.expression) &&
            ts.isPropertyAccessExpression(statement.expression.left) &&
            statement.expression.left.name.text === name
          ) {
            const found = repositoryEntity(statement.expression.right);
            if (found) return found;
          }
        }
      }
    }
    return null;
  }
  if (ts.isIdentifier(expression)) {
    const found = resolve(expression);
    if (found?.declaration.type) return repositoryTypeArgument(found.declaration.type);
    if (found?.kind === 'variable' && found.declaration.initializer)
      return repositoryEntity(found.declaration.initializer);
  }
  return null;
}

function repositoryTypeArgument(type: ts.TypeNode): string | null {
  if (
    ts.isTypeReferenceNode(type) &&
    type.typeName.getText() === 'Repository' &&
    type.typeArguments?.[0] &&
    ts.isTypeReferenceNode(type.typeArguments[0])
  ) {
    return type.typeArguments[0].typeName.getText();
  }
  return null;
}

/** The condition arguments of a query builder chain started by `call` (`.where`, `.andWhere`, joins). */
function builderConditions(call: ts.CallExpression): ts.Expression[] {
  const conditions: ts.Expression[] = [];
  let node: ts.Node = call;
  while (ts.isPropertyAccessExpression(node.parent) && ts.isCallExpression(node.parent.parent)) {
    const next = node.parent.parent;
    if (BUILDER_CONDITIONS.has(node.parent.name.text))
      conditions.push(...next.arguments.slice(0, 1), ...next.arguments.slice(2, 3));
    node = next;
  }
  return conditions;
}

/** Whether the criteria name the owner: an object literal with `userId` (at any depth), or a value whose declared type has one. */
function mentionsUserId(node: ts.Node, folder: SqlFolder): boolean {
  let found = false;
  const visit = (inner: ts.Node): void => {
    if (found) return;
    if (
      (ts.isPropertyAssignment(inner) || ts.isShorthandPropertyAssignment(inner)) &&
      inner.name.getText() === 'userId'
    )
      found = true;
    else if (ts.isIdentifier(inner) && !(ts.isPropertyAccessExpression(inner.parent) && inner.parent.name === inner)) {
      const type = resolve(inner)?.declaration.type;
      if (type && folder.typeHasUserId(type)) found = true;
    }
    ts.forEachChild(inner, visit);
  };
  visit(node);
  return found;
}

/** Public methods of repository classes that touch tenant rows (themselves or through a private method) but take no userId. */
function publicMethodsWithoutUserId(
  file: ts.SourceFile,
  tenantOwners: ReadonlySet<Owner>,
  folder: SqlFolder,
): Finding[] {
  const findings: Finding[] = [];
  file.forEachChild((node) => {
    if (!ts.isClassDeclaration(node) || !node.name) return;
    const className = node.name.text;
    const methods = node.members.filter(
      (member): member is ts.MethodDeclaration => ts.isMethodDeclaration(member) && !!member.body,
    );
    const touches = new Map<string, boolean>();
    const touchesTenant = (method: ts.MethodDeclaration, seen: Set<string>): boolean => {
      const name = method.name.getText();
      if (touches.has(name)) return touches.get(name)!;
      if (seen.has(name)) return false;
      seen.add(name);
      let result = tenantOwners.has(`${className}.${name}`);
      method.body!.forEachChild(function visit(inner: ts.Node) {
        if (result) return;
        if (
          ts.isCallExpression(inner) &&
          ts.isPropertyAccessExpression(inner.expression) &&
          inner.expression.expression.kind === ts.SyntaxKind.ThisKeyword
        ) {
          const callee = methods.find(
            (candidate) => candidate.name.getText() === (inner.expression as ts.PropertyAccessExpression).name.text,
          );
          if (callee && touchesTenant(callee, seen)) result = true;
        }
        ts.forEachChild(inner, visit);
      });
      touches.set(name, result);
      return result;
    };
    for (const method of methods) {
      const isPublic = !method.modifiers?.some(
        (modifier) =>
          modifier.kind === ts.SyntaxKind.PrivateKeyword || modifier.kind === ts.SyntaxKind.ProtectedKeyword,
      );
      if (!isPublic || !touchesTenant(method, new Set())) continue;
      const takesUser = method.parameters.some(
        (parameter) =>
          parameter.name.getText() === 'userId' ||
          (parameter.type !== undefined && folder.typeHasUserId(parameter.type)),
      );
      if (!takesUser) {
        findings.push({
          owner: `${className}.${method.name.getText()}`,
          path: file.fileName,
          line: file.getLineAndCharacterOfPosition(method.getStart(file)).line + 1,
          problem: 'public repository method reads or writes tenant rows but takes no userId',
        });
      }
    }
  });
  return findings;
}

/**
 * Rebuilds SQL text from an expression: literals, templates, `+`, constants and local variables
 * (in scope, or exported from any scanned file), and calls of arrow functions that return SQL
 * (their parameters bound to the call's arguments). Records every literal it used.
 */
class SqlFolder {
  readonly consumed = new Set<ts.Node>();
  private readonly exported = new Map<string, ts.VariableDeclaration | null>();
  private readonly types = new Map<string, ts.InterfaceDeclaration | ts.TypeAliasDeclaration | null>();

  constructor(files: readonly ts.SourceFile[]) {
    for (const file of files) {
      file.forEachChild((node) => {
        if (ts.isVariableStatement(node)) {
          for (const declaration of node.declarationList.declarations) {
            if (ts.isIdentifier(declaration.name)) this.remember(this.exported, declaration.name.text, declaration);
          }
        }
        if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && node.name)
          this.remember(this.types, node.name.text, node);
      });
    }
  }

  private remember<T>(map: Map<string, T | null>, name: string, value: T) {
    // A name declared in two files is ambiguous: it resolves to nothing rather than to a guess.
    map.set(name, map.has(name) ? null : value);
  }

  fold(node: ts.Node, bindings: ReadonlyMap<ts.ParameterDeclaration, string> = new Map(), depth = 0): string {
    if (depth > 25) return UNRESOLVED;
    if (ts.isStringLiteralLike(node)) {
      this.consumed.add(node);
      return node.text;
    }
    if (ts.isTemplateExpression(node)) {
      this.consumed.add(node);
      return (
        node.head.text +
        node.templateSpans.map((span) => this.fold(span.expression, bindings, depth + 1) + span.literal.text).join('')
      );
    }
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node))
      return this.fold(node.expression, bindings, depth + 1);
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      return this.fold(node.left, bindings, depth + 1) + this.fold(node.right, bindings, depth + 1);
    }
    // Both branches: a predicate must not depend on which one runs, and neither may name a table unscoped.
    if (ts.isConditionalExpression(node))
      return `${this.fold(node.whenTrue, bindings, depth + 1)} ${this.fold(node.whenFalse, bindings, depth + 1)}`;
    if (ts.isIdentifier(node)) {
      const found = resolve(node);
      if (found?.kind === 'parameter') return bindings.get(found.declaration) ?? UNRESOLVED;
      const declaration = found?.declaration ?? this.exported.get(node.text) ?? null;
      return declaration?.initializer && isConst(declaration)
        ? this.fold(declaration.initializer, bindings, depth + 1)
        : UNRESOLVED;
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const found = resolve(node.expression);
      const declaration =
        found?.kind === 'variable'
          ? found.declaration
          : found
            ? null
            : (this.exported.get(node.expression.text) ?? null);
      const fn = declaration?.initializer;
      if (fn && ts.isArrowFunction(fn) && !ts.isBlock(fn.body)) {
        const inner = new Map(bindings);
        fn.parameters.forEach((parameter, index) => {
          const argument = node.arguments[index];
          inner.set(parameter, argument ? this.fold(argument, bindings, depth + 1) : UNRESOLVED);
        });
        return this.fold(fn.body, inner, depth + 1);
      }
    }
    return UNRESOLVED;
  }

  /** Whether a type annotation names a userId: a type literal with one, or an interface/alias of the scanned files with one. */
  typeHasUserId(type: ts.TypeNode, depth = 0): boolean {
    if (depth > 5) return false;
    if (ts.isTypeLiteralNode(type)) return type.members.some((member) => member.name?.getText() === 'userId');
    if (ts.isIntersectionTypeNode(type) || ts.isUnionTypeNode(type))
      return type.types.some((inner) => this.typeHasUserId(inner, depth + 1));
    if (ts.isArrayTypeNode(type)) return this.typeHasUserId(type.elementType, depth + 1);
    if (ts.isTypeOperatorNode(type)) return this.typeHasUserId(type.type, depth + 1);
    if (ts.isTypeReferenceNode(type)) {
      const declaration = this.types.get(type.typeName.getText());
      if (!declaration) return type.typeArguments?.some((argument) => this.typeHasUserId(argument, depth + 1)) ?? false;
      if (ts.isTypeAliasDeclaration(declaration)) return this.typeHasUserId(declaration.type, depth + 1);
      return declaration.members.some((member) => member.name?.getText() === 'userId');
    }
    return false;
  }
}

function parse(source: SourceText): ts.SourceFile {
  return ts.createSourceFile(source.path, source.text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

function isConst(declaration: ts.VariableDeclaration): boolean {
  return ts.isVariableDeclarationList(declaration.parent) && (declaration.parent.flags & ts.NodeFlags.Const) !== 0;
}

type Resolved =
  | { kind: 'variable'; declaration: ts.VariableDeclaration }
  | { kind: 'parameter'; declaration: ts.ParameterDeclaration };

/** What an identifier refers to: the nearest parameter or const/let of its enclosing functions and blocks (the file's top level included). */
function resolve(identifier: ts.Identifier): Resolved | null {
  for (let scope: ts.Node | undefined = identifier.parent; scope; scope = scope.parent) {
    if (ts.isFunctionLike(scope)) {
      const parameter = scope.parameters.find(
        (candidate) => ts.isIdentifier(candidate.name) && candidate.name.text === identifier.text,
      );
      if (parameter) return { kind: 'parameter', declaration: parameter };
    }
    if (ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isModuleBlock(scope)) {
      for (const statement of scope.statements) {
        if (!ts.isVariableStatement(statement)) continue;
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name) && declaration.name.text === identifier.text)
            return { kind: 'variable', declaration };
        }
      }
    }
  }
  return null;
}

function templateText(node: ts.TemplateExpression): string {
  return node.head.text + node.templateSpans.map((span) => UNRESOLVED + span.literal.text).join('');
}

function isInsideConsumed(node: ts.Node, consumed: ReadonlySet<ts.Node>): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) if (consumed.has(parent)) return true;
  return false;
}

type OwnerNode = (ts.MethodDeclaration | ts.FunctionDeclaration) & { body?: ts.Block };
function isOwnerNode(node: ts.Node): node is OwnerNode {
  return (ts.isMethodDeclaration(node) || ts.isFunctionDeclaration(node)) && !!node.body;
}

/** `Class.method` for code in a method, `function` for a function declaration, `path#NAME` for a top-level constant. */
function ownerOf(node: ts.Node, file: ts.SourceFile): Owner {
  for (let scope: ts.Node | undefined = node; scope; scope = scope.parent) {
    if (
      (ts.isMethodDeclaration(scope) || ts.isConstructorDeclaration(scope) || ts.isPropertyDeclaration(scope)) &&
      ts.isClassDeclaration(scope.parent)
    ) {
      const member = ts.isConstructorDeclaration(scope) ? 'constructor' : scope.name.getText();
      return `${scope.parent.name?.text ?? '<class>'}.${member}`;
    }
    if (ts.isFunctionDeclaration(scope) && scope.name) return scope.name.text;
    if (
      ts.isVariableDeclaration(scope) &&
      ts.isVariableStatement(scope.parent.parent) &&
      ts.isSourceFile(scope.parent.parent.parent) &&
      ts.isIdentifier(scope.name)
    ) {
      return `${file.fileName}#${scope.name.text}`;
    }
  }
  return file.fileName;
}

function enclosing<T extends ts.Node>(node: ts.Node, test: (candidate: ts.Node) => candidate is T): T | null {
  for (let scope: ts.Node | undefined = node.parent; scope; scope = scope.parent) if (test(scope)) return scope;
  return null;
}

function calleeName(expression: ts.Expression): string | null {
  if (ts.isCallExpression(expression))
    return ts.isIdentifier(expression.expression) ? expression.expression.text : null;
  return ts.isIdentifier(expression) ? expression.text : null;
}

function firstArgument(expression: ts.Expression): ts.Expression | undefined {
  return ts.isCallExpression(expression) ? expression.arguments[0] : undefined;
}

function objectProperty(node: ts.Expression | undefined, name: string): string | null {
  if (!node || !ts.isObjectLiteralExpression(node)) return null;
  for (const property of node.properties) {
    if (
      ts.isPropertyAssignment(property) &&
      property.name.getText() === name &&
      ts.isStringLiteralLike(property.initializer)
    )
      return property.initializer.text;
  }
  return null;
}

/** The table an `@Entity('name')` or `@Entity({ name })` decorator names. */
function decoratorArgument(node: ts.ClassDeclaration, decoratorName: string): string | null {
  for (const decorator of ts.getDecorators(node) ?? []) {
    if (calleeName(decorator.expression) !== decoratorName) continue;
    const argument = firstArgument(decorator.expression);
    if (argument && ts.isStringLiteralLike(argument)) return argument.text;
    return objectProperty(argument, 'name');
  }
  return null;
}
