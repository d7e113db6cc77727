// Three tiers: unit (pure code, no I/O), integration (real PostgreSQL and Redis, a fresh
// database and key prefix per run) and e2e (the built app driven through Debian's Chromium).
const { compilerOptions } = require('./tsconfig.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);
const transform = {
  '^.+\\.tsx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};
const common = {
  rootDir: __dirname,
  moduleNameMapper,
  transform,
  setupFiles: ['reflect-metadata'],
  testEnvironment: 'node',
};

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{libs,gateway,services,bench}/**/*.spec.ts', '<rootDir>/web/src/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,gateway,services}/**/*.int-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/integration-timeout.ts'],
      globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/web/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
    },
  ],
};
