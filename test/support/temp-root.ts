// vitest globalSetup: every temp dir of one run (data dirs, configs, journals of the servers the
// tests start, and what those servers and Chromium make) lives under one root that is removed when
// the run ends. A journal segment is preallocated (32 MiB), so leaving them behind fills a disk in
// a few dozen runs. Workers and the processes they spawn inherit TMPDIR, which os.tmpdir() reads.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-vitest-'));
  process.env['TMPDIR'] = root;
  return () => { fs.rmSync(root, { recursive: true, force: true }); };
}
