// Which journal belongs to which shard store. A journal may live on a device of its own (config
// `journal.dir`), apart from its shard's LMDB environment, and a start that paired a store with a
// directory holding another store's journal would replay foreign records into it, or, with an
// empty directory, skip the store's own unreplayed ones; either silently, as the LSNs may line up.
// So the pair is named once: a random id that the store keeps (table `journal_home`) and the
// journal directory keeps (`journal.id`), recorded on the first start and checked on every one.
// Moving a journal means moving its directory's files, `journal.id` with them.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Database } from 'lmdb';
import type { JournalIo } from './io.js';

export interface JournalHome { readonly id: string; readonly shard: number }

/** What start-up needs to pair a shard's store with its journal directory. */
export interface JournalPair {
  readonly journalHome: Database<JournalHome, 'home'>;
  readonly journalDir: string;
  /** Where the journal lives when `journal.dir` is not set (the shard's own data directory). */
  readonly inPlaceJournalDir: string;
}

export class JournalHomeError extends Error {}

export const HOME_FILE = 'journal.id';

function markOf(text: string): JournalHome | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { id, shard } = value as Record<string, unknown>;
  return typeof id === 'string' && id !== '' && typeof shard === 'number' && Number.isSafeInteger(shard) && shard >= 0 ? { id, shard } : null;
}

function readMark(io: JournalIo, dir: string): JournalHome | null {
  if (!io.list(dir).includes(HOME_FILE)) return null;
  const file = path.join(dir, HOME_FILE);
  const mark = markOf(io.read(file).toString('utf8'));
  if (mark === null) throw new JournalHomeError(`${file} is not a journal id ({"id": "...", "shard": n}); it was changed by hand or is damaged`);
  return mark;
}

/**
 * Throws JournalHomeError, naming the directories, unless the shard's store and its journal
 * directory belong together. A store that has none yet (new, or written by a build before this
 * check) adopts the directory's id or records a new one in both, when `record` is true.
 */
export function claimJournalHome(pair: JournalPair, shard: number, io: JournalIo, record: boolean): void {
  const { journalDir, inPlaceJournalDir } = pair;
  const home = pair.journalHome.get('home');
  const mark = readMark(io, journalDir);
  if (mark !== null && mark.shard !== shard) {
    throw new JournalHomeError(`${journalDir} holds the journal of shard ${mark.shard}, not of shard ${shard}`);
  }
  if (home !== undefined) {
    if (mark === null) {
      throw new JournalHomeError(
        `shard ${shard}'s journal (id ${home.id}) is not in ${journalDir}: it has no ${HOME_FILE}. Point journal.dir at the directory that holds it, or move that directory's files there`,
      );
    }
    if (mark.id !== home.id) {
      throw new JournalHomeError(`${journalDir} holds another data directory's journal (id ${mark.id}); shard ${shard}'s is ${home.id}`);
    }
    return;
  }
  // A spare segment counts: the directory is in use.
  if (journalDir !== inPlaceJournalDir && io.list(inPlaceJournalDir).some((name) => name === HOME_FILE || name.endsWith('.journal'))) {
    throw new JournalHomeError(`shard ${shard}'s journal is still in ${inPlaceJournalDir}: move its files to ${journalDir}, or unset journal.dir`);
  }
  if (!record) return;
  const id = mark?.id ?? randomUUID();
  if (mark === null) {
    io.ensureDir(journalDir);
    io.writeWhole(path.join(journalDir, HOME_FILE), Buffer.from(`${JSON.stringify({ id, shard })}\n`));
  }
  pair.journalHome.putSync('home', { id, shard });
}
