// A shard's store and its journal directory are paired by an id both keep (store/journal/home.ts):
// the first start records it, every later start checks it, and a store meets a directory that is
// not its journal's (empty, another data directory's, another shard's, or a journal left behind
// where it used to live) with a refusal naming the directories, before any record is read.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimJournalHome, HOME_FILE, JournalHomeError } from '../../src/store/journal/home.js';
import { FsJournalIo } from '../../src/store/journal/io.js';
import type { ShardStore } from '../../src/store/store.js';
import { shardStores } from '../support/shard-stores.js';

const stores = shardStores('tas-home-');
const io = new FsJournalIo('fdatasync');
const dir = stores.dir;
const open = stores.open;

async function reopen(s: ShardStore, dataDir: string, shard: number, journalRoot: string | null): Promise<ShardStore> {
  await stores.close(s);
  return open(dataDir, shard, journalRoot);
}

const mark = (s: ShardStore): unknown => JSON.parse(fs.readFileSync(path.join(s.journalDir, HOME_FILE), 'utf8'));

describe('a shard store and its journal directory', () => {
  it('are paired on the first start, in place or in journal.dir, and accepted again after', async () => {
    const data = dir();
    const wal = dir();
    let inPlace = open(data, 0, null);
    claimJournalHome(inPlace, 0, io, true);
    expect(inPlace.journalDir).toBe(path.join(data, 'shard-0', 'journal'));
    expect(mark(inPlace)).toEqual(inPlace.journalHome.get('home'));
    inPlace = await reopen(inPlace, data, 0, null);
    expect(() => claimJournalHome(inPlace, 0, io, true)).not.toThrow();

    const elsewhere = open(data, 1, wal);
    claimJournalHome(elsewhere, 1, io, true);
    expect(elsewhere.journalDir).toBe(path.join(wal, 'shard-1'));
    expect(mark(elsewhere)).toEqual({ id: elsewhere.journalHome.get('home')!.id, shard: 1 });
    expect(elsewhere.journalHome.get('home')!.id).not.toBe(inPlace.journalHome.get('home')!.id);
    expect(fs.existsSync(path.join(data, 'shard-1', 'journal'))).toBe(false);
  });

  it('refuses an empty directory once the store has a journal, and records nothing there', async () => {
    const data = dir();
    let s = open(data, 0, null);
    claimJournalHome(s, 0, io, true);
    const elsewhere = dir();
    s = await reopen(s, data, 0, elsewhere);
    expect(() => claimJournalHome(s, 0, io, true)).toThrow(JournalHomeError);
    expect(() => claimJournalHome(s, 0, io, true)).toThrow(`shard 0's journal (id ${s.journalHome.get('home')!.id}) is not in ${path.join(elsewhere, 'shard-0')}`);
    expect(fs.existsSync(path.join(elsewhere, 'shard-0', HOME_FILE))).toBe(false);
  });

  it('follows its journal when the directory is moved with its files', async () => {
    const data = dir();
    const wal = dir();
    let s = open(data, 0, null);
    claimJournalHome(s, 0, io, true);
    fs.mkdirSync(wal, { recursive: true });
    fs.renameSync(s.journalDir, path.join(wal, 'shard-0'));
    s = await reopen(s, data, 0, wal);
    expect(() => claimJournalHome(s, 0, io, true)).not.toThrow();
  });

  it('refuses another data directory\'s journal, and another shard\'s', () => {
    const wal = dir();
    const first = open(dir(), 0, wal);
    claimJournalHome(first, 0, io, true);
    const other = open(dir(), 0, null);
    claimJournalHome(other, 0, io, true);
    fs.copyFileSync(path.join(first.journalDir, HOME_FILE), path.join(other.journalDir, HOME_FILE));
    expect(() => claimJournalHome(other, 0, io, true)).toThrow(`${other.journalDir} holds another data directory's journal (id ${first.journalHome.get('home')!.id}); shard 0's is ${other.journalHome.get('home')!.id}`);

    const shardOne = open(dir(), 1, null);
    fs.mkdirSync(shardOne.journalDir, { recursive: true });
    fs.copyFileSync(path.join(first.journalDir, HOME_FILE), path.join(shardOne.journalDir, HOME_FILE));
    expect(() => claimJournalHome(shardOne, 1, io, true)).toThrow(`${shardOne.journalDir} holds the journal of shard 0, not of shard 1`);
    expect(shardOne.journalHome.get('home')).toBeUndefined();
  });

  it('adopts the directory\'s id when the store has none (a data directory from before the pairing)', () => {
    const wal = dir();
    const first = open(dir(), 0, wal);
    claimJournalHome(first, 0, io, true);
    const id = first.journalHome.get('home')!.id;
    const older = open(dir(), 0, wal);
    claimJournalHome(older, 0, io, true);
    expect(older.journalHome.get('home')).toEqual({ id, shard: 0 });
  });

  it('refuses journal.dir while a store without a pairing still has its journal in place', () => {
    const data = dir();
    const inPlace = path.join(data, 'shard-0', 'journal');
    fs.mkdirSync(inPlace, { recursive: true });
    fs.writeFileSync(path.join(inPlace, '0000000001.journal'), Buffer.alloc(64));
    const wal = dir();
    const s = open(data, 0, wal);
    expect(() => claimJournalHome(s, 0, io, true)).toThrow(`shard 0's journal is still in ${inPlace}: move its files to ${path.join(wal, 'shard-0')}, or unset journal.dir`);
    expect(s.journalHome.get('home')).toBeUndefined();
  });

  it('refuses a journal.id that is not one, naming the file', () => {
    const s = open(dir(), 0, null);
    fs.mkdirSync(s.journalDir, { recursive: true });
    fs.writeFileSync(path.join(s.journalDir, HOME_FILE), '{"id": 7}');
    expect(() => claimJournalHome(s, 0, io, true)).toThrow(`${path.join(s.journalDir, HOME_FILE)} is not a journal id`);
  });

  it('only checks when asked not to record (a read-only look at a data directory)', () => {
    const s = open(dir(), 0, null);
    claimJournalHome(s, 0, io, false);
    expect(s.journalHome.get('home')).toBeUndefined();
    expect(fs.existsSync(path.join(s.journalDir, HOME_FILE))).toBe(false);
  });
});
