// The file operations of a journal, behind a port so a test can put a fault-injecting one in
// (faults.ts) and the bench can compare sync methods. Segment files are zero-filled before use
// (format.ts says why); preparing one is slow I/O (a 32 MiB segment: ~15 ms of writes and a
// ~10 ms fsync here), so it runs on libuv's thread pool while the shard keeps serving. The
// synchronous fallback, for when no prepared segment is ready, makes a sparse file instead: its
// syncs cost more (block allocation is a metadata change) but it never stalls the shard.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/**
 * How a write becomes durable. `fdatasync`: pwrite, then fdatasync. `dsync`: the file is opened
 * O_DSYNC, so the pwrite returns once durable (one syscall). `none`: nothing is synced (durability
 * "none": a process crash loses nothing, a power loss may).
 */
export type SyncMethod = 'fdatasync' | 'dsync' | 'none';

export interface SegmentFile {
  /** Writes bytes[0, length) at `position`, all of them; throws on failure. */
  write(bytes: Uint8Array, length: number, position: number): void;
  /** Makes every write so far durable (per the sync method); throws on failure. */
  sync(): void;
  close(): void;
}

export interface JournalIo {
  /** Opens a prepared (zero-filled) segment for writing. */
  open(file: string): SegmentFile;
  /** Creates a zero-filled segment, durable with its directory entry, off the calling thread. */
  prepare(file: string, bytes: number): Promise<void>;
  /** Creates a segment at once (sparse), durable with its directory entry. */
  createNow(file: string, bytes: number): void;
  remove(file: string): void;
  read(file: string): Buffer;
  /** Creates the directory (and its parents) if missing, durably. */
  ensureDir(dir: string): void;
  /** File names in the directory (none when it does not exist). */
  list(dir: string): string[];
  /** Writes a small file whole or not at all (a temporary file, synced, renamed, the directory synced). */
  writeWhole(file: string, bytes: Uint8Array): void;
}

const ZERO_CHUNK_BYTES = 1 << 20;

function syncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
}

class FsSegmentFile implements SegmentFile {
  constructor(private readonly fd: number, private readonly method: SyncMethod) {}

  write(bytes: Uint8Array, length: number, position: number): void {
    let done = 0;
    while (done < length) done += fs.writeSync(this.fd, bytes, done, length - done, position + done);
  }

  sync(): void {
    if (this.method === 'fdatasync') fs.fdatasyncSync(this.fd);
  }

  close(): void { fs.closeSync(this.fd); }
}

export class FsJournalIo implements JournalIo {
  constructor(private readonly method: SyncMethod) {}

  open(file: string): SegmentFile {
    const flags = fs.constants.O_WRONLY | (this.method === 'dsync' ? fs.constants.O_DSYNC : 0);
    return new FsSegmentFile(fs.openSync(file, flags), this.method);
  }

  async prepare(file: string, bytes: number): Promise<void> {
    const temp = `${file}.tmp`;
    const handle = await fsp.open(temp, 'w');
    try {
      const zeros = Buffer.alloc(Math.min(ZERO_CHUNK_BYTES, bytes));
      for (let at = 0; at < bytes; at += zeros.length) await handle.write(zeros, 0, Math.min(zeros.length, bytes - at), at);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // Renamed only once whole, so a crash never leaves a half-zeroed file under a segment's name.
    await fsp.rename(temp, file);
    const dir = await fsp.open(path.dirname(file), 'r');
    try { await dir.sync(); } finally { await dir.close(); }
  }

  createNow(file: string, bytes: number): void {
    const fd = fs.openSync(file, 'w');
    try {
      fs.ftruncateSync(fd, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    syncDir(path.dirname(file));
  }

  remove(file: string): void {
    fs.rmSync(file, { force: true });
  }

  read(file: string): Buffer {
    return fs.readFileSync(file);
  }

  ensureDir(dir: string): void {
    if (fs.existsSync(dir)) return;
    fs.mkdirSync(dir, { recursive: true });
    syncDir(path.dirname(dir));
  }

  list(dir: string): string[] {
    try {
      return fs.readdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  writeWhole(file: string, bytes: Uint8Array): void {
    const temp = `${file}.tmp`;
    const fd = fs.openSync(temp, 'w');
    try {
      let done = 0;
      while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done, done);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
    syncDir(path.dirname(file));
  }
}
