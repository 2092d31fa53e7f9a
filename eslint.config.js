// ESLint (flat config): the recommended rules of ESLint and typescript-eslint over every
// TypeScript and JavaScript file of the kit. Each change to the recommended sets says why.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'reports/', '.stryker-tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // A disable comment that no rule needs any more is an error, so none can linger.
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_x` marks a parameter or binding kept for its position (tsc's own convention), and
      // `const { field, ...rest } = x` is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', {
        argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true,
      }],
    },
  },
  {
    files: ['test/**'],
    rules: {
      // The tests build faulty servers by editing answers as plain JSON, of every shape a server
      // might send; typing each edit would add casts, not safety.
      '@typescript-eslint/no-explicit-any': 'off',
      // The tests send and look for control characters on purpose (hostile content, ANSI colours).
      'no-control-regex': 'off',
      // The tests match column-aligned console output; literal spaces show the columns as printed.
      'no-regex-spaces': 'off',
    },
  },
);
