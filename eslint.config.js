import tseslint from 'typescript-eslint';

// The trading core must stay pure so a shard can replay it from its journal:
// no I/O modules, no clock, no randomness (commands and time come in as arguments).
const engineRestrictions = {
  files: ['src/engine/**/*.ts'],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [
        { group: ['node:*'], message: 'src/engine is pure: no Node I/O modules.' },
        { group: ['fs', 'fs/*', 'net', 'tls', 'http', 'https', 'os', 'path', 'crypto', 'child_process', 'worker_threads', 'dgram', 'dns', 'stream', 'timers', 'timers/*', 'perf_hooks', 'process'], message: 'src/engine is pure: no Node I/O modules.' },
        { group: ['uWebSockets.js', 'lmdb', 'lmdb/*', 'pino', 'pino/*', 'piscina', 'msgpackr'], message: 'src/engine is pure: no I/O libraries.' },
        // gitignore semantics: re-include the folders, then exclude market/* except the schedule.
        { group: ['../*', '!../engine', '!../market', '../market/*', '!../market/session*'], message: 'src/engine may import only itself and the pure session schedule.' },
      ],
    }],
    'no-restricted-globals': ['error',
      { name: 'Date', message: 'src/engine takes time as an argument (nowMs).' },
      { name: 'performance', message: 'src/engine takes time as an argument.' },
      { name: 'process', message: 'src/engine does no I/O.' },
      { name: 'setTimeout', message: 'src/engine has no timers.' },
      { name: 'setInterval', message: 'src/engine has no timers.' },
      { name: 'setImmediate', message: 'src/engine has no timers.' },
      { name: 'crypto', message: 'src/engine has no randomness.' },
      { name: 'fetch', message: 'src/engine does no I/O.' },
      { name: 'require', message: 'src/engine does no I/O.' },
    ],
    'no-restricted-properties': ['error',
      { object: 'Math', property: 'random', message: 'src/engine is deterministic: no Math.random.' },
      { object: 'globalThis', property: 'Date', message: 'src/engine takes time as an argument.' },
    ],
    'no-restricted-syntax': ['error',
      { selector: "ImportExpression", message: 'src/engine does no dynamic imports.' },
    ],
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.tmp/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error',
        { object: 'it', property: 'skip', message: 'A skipped test proves nothing.' },
        { object: 'it', property: 'only', message: 'Focused tests hide the rest.' },
        { object: 'describe', property: 'skip', message: 'A skipped test proves nothing.' },
        { object: 'describe', property: 'only', message: 'Focused tests hide the rest.' },
        { object: 'test', property: 'skip', message: 'A skipped test proves nothing.' },
      ],
    },
  },
  engineRestrictions,
  {
    // One loader chooses the native uWebSockets.js build (src/gateway/uws.ts); a value import
    // anywhere else could load a build it refused, or the stand-in that fails on the first request.
    files: ['**/*.ts'],
    ignores: ['src/gateway/uws.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [
          { name: 'uWebSockets.js', allowTypeImports: true, message: 'Load uWS through uws() of src/gateway/uws.ts.' },
          { name: '@trufflesuite/uws-js-unofficial', message: 'Load uWS through uws() of src/gateway/uws.ts.' },
        ],
      }],
    },
  },
);
