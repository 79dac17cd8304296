// One jest run, three projects: unit specs beside the code, integration specs against the
// real PostgreSQL, Redis and NATS on their standard local ports, and end-to-end specs of
// the whole platform over HTTP. TypeScript is compiled by SWC (fast, with the decorator
// metadata NestJS needs); path aliases come from tsconfig.base.json.
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace('/', '\\/')}$`] = `<rootDir>/${target}`;
}

const swc = {
  swcrc: false,
  jsc: {
    target: 'es2022',
    keepClassNames: true,
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

// Network libraries that ship only ES modules (@mysten/sui and what it imports, parts of
// @stellar/stellar-sdk and of @injectivelabs/sdk-ts) are compiled to CommonJS like the sources; every other package
// is loaded as it is.
const esmOnly = [
  '@mysten',
  '@noble',
  '@scure',
  'valibot',
  'gql\\.tada',
  'graphql',
  'poseidon-lite',
  '@protobuf-ts',
  '@0no-co',
  'uint8array-extras',
  '@exodus',
  '@stellar',
  '@injectivelabs/[a-z-]+-proto-ts-v2',
];
const swcJs = { ...swc, jsc: { target: 'es2022', parser: { syntax: 'ecmascript' } } };

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', swc], '^.+\\.m?js$': ['@swc/jest', swcJs] },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleNameMapper,
  setupFiles: ['<rootDir>/libs/testing/src/jest-setup.js'],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};

module.exports = {
  // A worker past this after a spec file is replaced: a long run's heap slowed one worker's specs 10x (CI, 2026-12-02).
  workerIdleMemoryLimit: '1GB',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'] },
    // Integration specs get 30 s per test and hook (jest-integration-setup.js).
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts'],
      slowTestThreshold: 10,
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest-integration-setup.js'],
    },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/apps/platform-e2e/**/*.e2e-spec.ts'], slowTestThreshold: 30 },
  ],
};
