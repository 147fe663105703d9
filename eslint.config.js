import js from '@eslint/js'
import react from 'eslint-plugin-react'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// Imports refused by place. A file gets the restrictions of the last block below that sets
// `no-restricted-imports` for it, so each block lists every restriction that applies.

// The engine is used only through engine/index.ts (tests may also use its test support).
// engine/types.ts, its vocabulary without imports, is the one other file the app may use:
// browser code needs its limits and cannot take index.ts, which brings Redis along.
const engineThroughIndex = {
  group: ['**/engine/**', '!**/engine/index.ts', '!**/engine/types.ts'],
  message: 'Import the engine through engine/index.ts.',
}
const engineInTests = {
  group: [...engineThroughIndex.group, '!**/engine/test-support.ts'],
  message: 'Import the engine through engine/index.ts (or engine/test-support.ts).',
}
// Components translate through app/i18n/use-translation.ts.
const translationHook = {
  name: 'react-i18next',
  importNames: ['useTranslation'],
  message: 'Use useTranslation from app/i18n/use-translation.ts (it keeps resolved texts).',
}
// Routes speak HTTP, services decide, models read and write data (docs/architecture.md): models
// import neither services nor routes.
const modelsBelowServices = {
  group: ['**/services/**', '**/routes/**'],
  message: 'Models read and write data: services and routes call them, not the other way round.',
}
// Shared helpers, components, schemas, translation and types sit below them too: what a service
// or a route shares with one of these lives down here (app/types, app/validation, app/i18n).
const belowServices = {
  group: modelsBelowServices.group,
  message: 'Utils, components, validation, i18n and types import neither services nor routes.',
}
const belowServicesFolders = ['utils', 'components', 'validation', 'i18n', 'types']

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'build',
      '.data',
      '.cache',
      'prisma/generated',
      'coverage',
      'tests/e2e/artifacts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { react, 'react-hooks': reactHooks },
    settings: { react: { version: 'detect' } },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs['jsx-runtime'].rules,
      ...reactHooks.configs.recommended.rules,
      'react/prop-types': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports' },
      ],
    },
  },
  {
    // A request's body is read only through app/utils/request-body.server.ts, which counts its
    // bytes as they arrive and stops at the limit.
    files: ['app/**/*.{ts,tsx}', 'server/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.name='request'][callee.property.name=/^(formData|text|json|arrayBuffer|blob)$/]",
          message: 'Read request bodies with readBody / readForm / readJson (size-limited).',
        },
      ],
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['engine/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [engineThroughIndex], paths: [translationHook] },
      ],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'tests/**/*.ts', 'bench/**/*.ts'],
    ignores: ['engine/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [engineInTests] }],
    },
  },
  {
    files: ['app/models/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [engineThroughIndex, modelsBelowServices], paths: [translationHook] },
      ],
    },
  },
  {
    files: ['app/models/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [engineInTests, modelsBelowServices] }],
    },
  },
  {
    files: belowServicesFolders.map((folder) => `app/${folder}/**/*.{ts,tsx}`),
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [engineThroughIndex, belowServices], paths: [translationHook] },
      ],
    },
  },
  {
    files: belowServicesFolders.map((folder) => `app/${folder}/**/*.test.{ts,tsx}`),
    rules: {
      'no-restricted-imports': ['error', { patterns: [engineInTests, belowServices] }],
    },
  },
  {
    // The service worker runs in its own global scope (app/routes/sw[.]js.ts serves it).
    files: ['app/service-worker/**/*.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
)
