// `npm run lint`: the compiler (tsc --noEmit), this file's rules, and Prettier's check.
// The rules are the ones that catch bugs the compiler lets through in this code base (a promise nobody
// awaits loses its error and its ordering; a value import of a type-only module keeps a runtime edge
// the layers forbid), plus the layer boundaries of docs/ARCHITECTURE.md as import restrictions, so an
// editor shows a wrong import as it is typed. test/architecture/importLayers.test.ts stays the full
// check (it also follows require() and import() and knows the one allowed entry-point edge).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Imports a layer may not make (paths as written from inside src/, any depth). */
const upward = (...dirs) =>
  dirs.flatMap((dir) => [`**/${dir}/**`, `../${dir}`, `./${dir}`, `../../${dir}`, `../../../${dir}`]);

const layer = (files, forbiddenDirs, packages = []) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...(forbiddenDirs.length > 0
            ? [{ group: upward(...forbiddenDirs), message: 'layers import downwards only (docs/ARCHITECTURE.md)' }]
            : []),
          ...(packages.length > 0
            ? [{ group: packages, message: 'the pure base has no outside effects (docs/ARCHITECTURE.md)' }]
            : []),
        ],
      },
    ],
  },
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-bench/**',
      'node_modules/**',
      'coverage/**',
      'test-output/**',
      'bench/results/**',
      'data/**',
      '.tools/**',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: {
        // The probes are files test/architecture/lint.test.ts lints from stdin, to show each rule bites.
        projectService: { allowDefaultProject: ['src/core/lintProbe.ts', 'src/app/lintProbe.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      'no-var': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  layer(
    ['src/core/**/*.ts', 'src/schemas/**/*.ts', 'src/config.ts'],
    ['adapters', 'queues', 'app', 'cli', 'server', 'workers', 'sources', 'sample'],
    ['bullmq', 'ioredis', 'sharp', 'fastify', 'pino'],
  ),
  layer(
    ['src/adapters/**/*.ts', 'src/queues/**/*.ts', 'src/sample/**/*.ts', 'src/logger.ts'],
    ['app', 'cli', 'server', 'workers', 'sources'],
  ),
  layer(['src/app/**/*.ts'], ['cli', 'server', 'workers', 'sources']),
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: {
      sourceType: 'commonjs',
      globals: globals.node,
    },
    // `{ dropped: _name, ...rest }` is how a field is left out of a copy.
    rules: { 'no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_' }] },
  },
  { files: ['**/*.mjs'], languageOptions: { sourceType: 'module' } },
  {
    files: ['web/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: globals.browser,
    },
  },
);
