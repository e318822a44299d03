import fs from 'node:fs';
import tseslint from 'typescript-eslint';

// The layers of src/, bottom to top; docs/architecture.md draws them. Each folder may import itself
// and the folders it names here, all of them listed before it: never one above it, never one beside
// it. The files directly in src/ (main.ts, service.ts) are the root: they wire the layers together
// and no layer imports them. test/lint/layers.test.ts proves every fence bites.
export const LAYERS = [
  ['engine', []],
  ['ring', []],
  ['base', ['engine']],
  ['config', ['engine', 'base']],
  ['market', ['engine', 'base', 'config']],
  ['store', ['engine', 'base', 'config', 'market']],
  ['shard', ['engine', 'base', 'ring', 'config', 'market', 'store']],
  ['api', ['config']],
  ['cluster', ['engine', 'base', 'ring', 'config', 'market', 'store', 'shard']],
  ['gateway', ['engine', 'base', 'ring', 'config', 'market', 'store', 'shard', 'api']],
  ['fix', ['engine', 'base', 'ring', 'config', 'market', 'store', 'shard']],
  ['console', ['engine', 'base', 'config', 'market', 'store', 'shard', 'gateway']],
  ['client', ['api']],
  ['cli', ['base', 'config']],
];

const ROOT_FILES = fs.readdirSync(new URL('./src/', import.meta.url), { withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => e.name.replace(/\.ts$/, ''));

/** The import patterns a layer may not use: every other layer it does not name, and the root. */
function layerFence(layer, allowed) {
  const may = allowed.length === 0 ? 'only itself' : `only itself and ${allowed.map((a) => `src/${a}`).join(', ')}`;
  const message = (what) => `src/${layer} may import ${may} (the layers of docs/architecture.md), not ${what}.`;
  return [
    ...LAYERS.map(([other]) => other).filter((other) => other !== layer && !allowed.includes(other))
      .map((other) => ({ regex: `^(\\.\\./)+${other}(/|$)`, message: message(`src/${other}`) })),
    { regex: `^(\\.\\./)+(${ROOT_FILES.join('|')})\\.js$`, message: message('the root (src/*.ts)') },
  ];
}

const layerRestrictions = LAYERS.filter(([layer]) => layer !== 'engine').map(([layer, allowed]) => ({
  files: [`src/${layer}/**/*.ts`],
  rules: { 'no-restricted-imports': ['error', { patterns: layerFence(layer, allowed) }] },
}));

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
        ...layerFence('engine', []),
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
  ...layerRestrictions,
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
