// The one place that loads uWebSockets.js. Two native builds are installed, both opened as their
// `.node` files directly (never through a package's entry script):
//   uWS 20.57 (`uWebSockets.js`, npm @btc-vision/uwebsockets.js): Node 20, 22, 24, 25 (ABI 115,
//     127, 137, 141); on Linux it needs glibc 2.38 or newer (Debian 13, Ubuntu 24.04, RHEL 10).
//   uWS 20.30 (npm @trufflesuite/uws-js-unofficial): Node 16, 18, 20 (ABI 93, 108, 115); glibc
//     2.27 or newer. Its entry script falls back to a JavaScript stand-in that fails on the first
//     request (`Not implemented`), which is why its files are opened here and its script never is.
// The newer build is taken wherever it loads, the older one otherwise; with neither, start-up stops
// (selectUws) with a message naming Node's version, the C library and what to install.
import { createRequire } from 'node:module';
import path from 'node:path';

export type Uws = typeof import('uWebSockets.js');

interface Build {
  /** How the start-up line names the build. */
  readonly name: string;
  /** The dependency's name in package.json. */
  readonly pkg: string;
  /** Its name on the registry. */
  readonly npm: string;
  /** Folder of the `.node` files, relative to the package's entry script. */
  readonly dir: string;
  readonly supports: string;
}

const BUILDS: readonly Build[] = [
  { name: 'uWS 20.57', pkg: 'uWebSockets.js', npm: '@btc-vision/uwebsockets.js@20.57.0', dir: '.', supports: 'Node 20, 22, 24, 25 (glibc 2.38 or newer on Linux)' },
  { name: 'uWS 20.30', pkg: '@trufflesuite/uws-js-unofficial', npm: '@trufflesuite/uws-js-unofficial@20.30.0-unofficial.0', dir: '../binaries', supports: 'Node 20 (glibc 2.27 or newer on Linux)' },
];

export interface Refusal { readonly build: string; readonly reason: string }

export interface Platform {
  readonly node: string;
  readonly abi: string;
  readonly os: string;
  readonly arch: string;
  /** glibc's version; null on musl and on systems without glibc. */
  readonly glibc: string | null;
}

export type UwsChoice =
  | { readonly ok: true; readonly uws: Uws; readonly build: string; readonly platform: Platform; readonly refused: readonly Refusal[] }
  | { readonly ok: false; readonly platform: Platform; readonly refused: readonly Refusal[]; readonly message: string };

export function platform(): Platform {
  const { header } = process.report.getReport() as { header: { glibcVersionRuntime?: string } };
  return {
    node: process.version,
    abi: process.versions.modules,
    os: process.platform,
    arch: process.arch,
    glibc: header.glibcVersionRuntime ?? null,
  };
}

const require = createRequire(import.meta.url);

function load(build: Build, p: Platform): Uws {
  const file = path.join(path.dirname(require.resolve(build.pkg)), build.dir, `uws_${p.os}_${p.arch}_${p.abi}.node`);
  return require(file) as Uws;
}

/** First line of a loader error, without the file's long path where the cause is only its absence. */
function reasonOf(err: unknown, p: Platform): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'MODULE_NOT_FOUND') return `no build for ${p.os} ${p.arch} Node ABI ${p.abi}`;
  return String(e.message ?? err).split('\n')[0]!;
}

function refusalMessage(p: Platform, refused: readonly Refusal[]): string {
  const glibc = p.glibc === null ? 'no glibc (musl or another C library)' : `glibc ${p.glibc}`;
  return [
    `tas cannot start: no native uWebSockets.js build loads on Node ${p.node} (ABI ${p.abi}), ${p.os} ${p.arch}, ${glibc}.`,
    ...refused.map((r) => `  ${r.build}: ${r.reason}`),
    'Install one of:',
    ...BUILDS.map((b) => `  - ${b.supports}, for ${b.name} (${b.npm})`),
    'e.g. Node 20 on this system, or Node 22/24 on a system with glibc 2.38 or newer.',
  ].join('\n');
}

/** Tries the builds in order of preference. */
export function chooseUws(p: Platform = platform()): UwsChoice {
  const refused: Refusal[] = [];
  for (const build of BUILDS) {
    try {
      return { ok: true, uws: load(build, p), build: `${build.name} (${build.npm})`, platform: p, refused };
    } catch (err) {
      refused.push({ build: build.name, reason: reasonOf(err, p) });
    }
  }
  return { ok: false, platform: p, refused, message: refusalMessage(p, refused) };
}

let chosen: UwsChoice | null = null;

/** Chooses once per process; the entry point calls it first, so a refusal happens at start. */
export function selectUws(): UwsChoice {
  chosen ??= chooseUws();
  return chosen;
}

/** The loaded binding; selectUws must have succeeded (a refusal already stopped start-up). */
export function uws(): Uws {
  const choice = selectUws();
  if (!choice.ok) throw new Error(choice.message);
  return choice.uws;
}
