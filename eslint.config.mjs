// Flat config: typescript-eslint (type-aware) + prettier. Pure core modules may not
// reach for I/O: that rule is what keeps the core testable without mocks.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import prettier from 'eslint-config-prettier'

// The pure core and the adapters and renderers it may not import (CONTRIBUTING's layout;
// __tests__/purity-lint.test.ts plants a violation in each core folder).
const PURE_CORE = ['src/receipts/**/*.ts', 'src/gate/**/*.ts']
const NOT_IN_CORE = ['action', 'cli', 'github', 'render', 'source'].map(
  (folder) => `**/${folder}/**`
)

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'build/**', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({
    ...config,
    files: ['**/*.ts']
  })),
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.test.json'],
        tsconfigRootDir: import.meta.dirname
      }
    },
    rules: {
      '@typescript-eslint/explicit-function-return-type': [
        'error',
        { allowExpressions: true }
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/require-array-sort-compare': 'error',
      '@typescript-eslint/promise-function-async': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Matching control characters is the point of the sanitisers and the JSON reader.
      'no-control-regex': 'off'
    }
  },
  {
    files: PURE_CORE,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@actions/*', '@octokit/*'],
              message: 'The core is pure: no GitHub here.'
            },
            {
              group: [
                'node:fs',
                'node:fs/*',
                'fs',
                'node:child_process',
                'child_process',
                'node:net',
                'node:http',
                'node:https'
              ],
              message: 'The core is pure: no I/O here.'
            },
            {
              group: NOT_IN_CORE,
              message: 'The core may not import adapters.'
            }
          ]
        }
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'The core is pure: pass values in.' }
      ]
    }
  },
  {
    files: ['**/*.mjs', 'scripts/**/*.js'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' }
    }
  },
  {
    files: ['__tests__/**/*.ts'],
    rules: {
      '@typescript-eslint/explicit-function-return-type': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off'
    }
  },
  prettier
)
