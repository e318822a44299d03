// A Node release other than the one running the tests, from the registry's `node-<os>-<arch>`
// package (the binary the `node` package installs), fetched once with npm and kept in .tmp/.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Path of the `node` binary of `version` (e.g. "22.23.3") for this machine's OS and CPU. */
export function nodeRelease(version: string): string {
  const dir = path.join(ROOT, '.tmp', `node-${version}`);
  const bin = path.join(dir, 'package', 'bin', 'node');
  if (fs.existsSync(bin)) return bin;
  fs.mkdirSync(dir, { recursive: true });
  const pkg = `node-${process.platform}-${process.arch}@${version}`;
  const tarball = execFileSync('npm', ['pack', pkg, '--silent', '--pack-destination', dir], { cwd: dir, encoding: 'utf8', timeout: 120_000 }).trim().split('\n').pop()!;
  execFileSync('tar', ['xzf', path.join(dir, tarball), '-C', dir, 'package/bin/node'], { timeout: 60_000 });
  fs.rmSync(path.join(dir, tarball));
  return bin;
}
