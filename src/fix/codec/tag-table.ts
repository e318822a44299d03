// Per-tag facts the tokenizer needs on every field, as flat arrays indexed by tag number instead
// of Set/Map lookups (all FIX44 header and data tags are below TAG_TABLE_SIZE).
import { DATA_LENGTH_TAG, FIX44_MSG_TYPES, HEADER_TAGS, Tag } from '../dictionary.js';

export const TAG_TABLE_SIZE = 1024;

export const TagClass = { Body: 0, Header: 1, Trailer: 2 } as const;

/**
 * Per tag: TagClass in the low two bits and, for a DATA field, the tag of the LENGTH field that
 * must precede it in the bits above (info >>> 2). 0 for ordinary body tags (most fields) and for
 * tags at or above TAG_TABLE_SIZE, so the common case costs one read and one compare.
 */
export const TAG_INFO: Uint16Array = (() => {
  const t = new Uint16Array(TAG_TABLE_SIZE);
  for (const tag of HEADER_TAGS) t[tag] = TagClass.Header;
  for (const tag of [Tag.SignatureLength, Tag.Signature, Tag.CheckSum]) t[tag] = TagClass.Trailer;
  for (const [data, length] of DATA_LENGTH_TAG) t[data] = (t[data] ?? 0) | (length << 2);
  return t;
})();

/** MsgType values keyed by their bytes (b0 or b0 << 8 | b1), so reading 35 allocates no string. */
const MSG_TYPES = new Map<number, string>(
  [...FIX44_MSG_TYPES].map((t) => [t.length === 1 ? t.charCodeAt(0) : (t.charCodeAt(0) << 8) | t.charCodeAt(1), t]),
);

export function internMsgType(bytes: Uint8Array, start: number, end: number): string | undefined {
  const len = end - start;
  if (len === 1) return MSG_TYPES.get(bytes[start] as number);
  if (len === 2) return MSG_TYPES.get(((bytes[start] as number) << 8) | (bytes[start + 1] as number));
  return undefined;
}
