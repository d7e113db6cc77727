// Lint at zero warnings: promise misuse, exhaustive switches, no focused tests, and the
// import boundaries of our layout (engineering guideline 2). Layout is Prettier's (npm run
// format:check, part of npm run lint).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const noFocusedTests = [
  'error',
  ...['describe', 'it', 'test'].flatMap((object) => [
    { object, property: 'only', message: 'A focused test hides the rest of the suite.' },
  ]),
];

const restrict = (patterns, paths = []) => ['error', { patterns, paths }];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'web/dist/**',
      'coverage/**',
      'screenshots/**',
      'deploy/**/*.cjs',
      'gateway/test/support/web-dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['web/vite.config.ts', 'web/vitest.config.ts', 'web/build-plugins/*.ts'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
      'no-restricted-properties': noFocusedTests,
    },
  },
  // Later blocks override earlier ones for the same rule: the stricter domain block comes last.
  {
    files: ['libs/**/*.ts'],
    ignores: ['libs/testing/**'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['**/gateway/**', '**/services/**'], message: 'Libraries never import applications.' },
      ]),
    },
  },
  ...[
    { files: ['libs/domain/**/*.ts'], ignores: ['libs/domain/**/*.spec.ts'], allowed: [], paths: [] },
    // Its tests may use the I/O-free test oracles (libs/testing/src/oracles), nothing else of ours.
    {
      files: ['libs/domain/**/*.spec.ts'],
      allowed: ['!@pod/testing', '@pod/testing/*', '!@pod/testing/oracles'],
      paths: [{ name: '@pod/testing', message: 'A libs/domain test imports only @pod/testing/oracles (no I/O).' }],
    },
  ].map(({ allowed, paths, ...block }) => ({
    ...block,
    rules: {
      'no-restricted-imports': restrict(
        [
          {
            group: [
              '@pod/*',
              ...allowed,
              '@nestjs/*',
              'typeorm',
              'bullmq',
              'ioredis',
              'pg',
              'react',
              'node:*',
              'fs',
              'http',
              'https',
              'net',
              '**/gateway/**',
              '**/services/**',
            ],
            message: 'libs/domain is pure: no framework, I/O or other library of ours.',
          },
        ],
        paths,
      ),
    },
  })),
  ...['etsy-sync', 'printify-sync', 'matcher', 'fx-rate'].map((worker) => ({
    files: [`services/${worker}/**/*.ts`],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['**/gateway/**'], message: 'Workers never import the gateway.' },
        {
          group: ['etsy-sync', 'printify-sync', 'matcher', 'fx-rate']
            .filter((w) => w !== worker)
            .map((w) => `**/${w}/**`),
          message: 'A worker never imports another worker.',
        },
      ]),
    },
  })),
  // One data-access pattern (docs/adr/0003-data-access.md): only libs/db talks to PostgreSQL.
  {
    files: ['gateway/**/*.ts', 'services/**/*.ts', 'libs/**/*.ts'],
    ignores: [
      'libs/db/**',
      'libs/testing/**',
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      'gateway/test/**',
      'services/test/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(query|getRepository|createQueryBuilder|createQueryRunner|transaction)$/]',
          message:
            'Only libs/db talks to PostgreSQL: add a method to a repository in libs/db/src/repositories (ADR 0003).',
        },
        {
          selector: 'ImportSpecifier[imported.name=/^Inject(Repository|DataSource|EntityManager)$/]',
          message: 'Inject a repository from @pod/db, not TypeORM (ADR 0003).',
        },
        {
          selector: "ImportDeclaration[source.value='pg']",
          message: 'Only libs/db (and test helpers) use pg directly (ADR 0003).',
        },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': restrict([
        {
          group: ['@pod/*', '!@pod/domain', '!@pod/contracts'],
          message: 'The web app imports only @pod/domain and @pod/contracts.',
        },
        {
          group: ['@nestjs/*', 'typeorm', 'bullmq', 'ioredis', 'pg'],
          message: 'Server packages do not belong in the browser.',
        },
      ]),
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { ...globals.node } },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
  // Last: turns off every rule that is about layout, which Prettier owns (npm run format).
  prettier,
);
