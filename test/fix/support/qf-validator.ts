// Checks one encoded message the way a QuickFIX client with ValidateIncomingMessage=Y does
// (DataDictionary::validate): BeginString, BodyLength and CheckSum; header first and trailer last;
// known tags, defined for this message type, not repeated; required fields of header, body,
// trailer and of every group entry; a group's entries start with its delimiter and match its
// count; values parse as their type and enumerated values are in the enumeration. Beyond
// QuickFIX (strictOrder): fields follow the dictionary's order, and a required component shows
// at least one of its fields.
import { type QfDictionary, type QfLayout, stockFix44 } from './qf-dictionary.js';

interface Field { readonly tag: number; readonly value: string }

const DATA_LENGTH: ReadonlyMap<number, number> = new Map([
  [89, 93], [91, 90], [96, 95], [213, 212], [349, 348], [351, 350], [353, 352], [355, 354],
  [357, 356], [359, 358], [361, 360], [363, 362], [365, 364], [446, 445], [619, 618], [622, 621],
]);

function splitFields(text: string, errors: string[]): Field[] {
  const fields: Field[] = [];
  let p = 0;
  while (p < text.length) {
    const eq = text.indexOf('=', p);
    const soh = text.indexOf('\x01', p);
    if (eq < 0 || (soh >= 0 && soh < eq)) {
      errors.push(`field without '=' at byte ${p}`);
      if (soh < 0) break;
      p = soh + 1;
      continue;
    }
    const tagText = text.slice(p, eq);
    if (!/^[1-9]\d*$/.test(tagText)) errors.push(`invalid tag number "${tagText}"`);
    const tag = Number(tagText);
    const lengthTag = DATA_LENGTH.get(tag);
    const prev = fields[fields.length - 1];
    let end = lengthTag !== undefined && prev?.tag === lengthTag ? eq + 1 + Number(prev.value) : text.indexOf('\x01', eq + 1);
    if (end < 0 || text[end] !== '\x01') {
      errors.push(`field ${tag} not terminated by SOH`);
      end = text.length;
    }
    fields.push({ tag, value: text.slice(eq + 1, end) });
    p = end + 1;
  }
  return fields;
}

function validDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

function dateOk(s: string): boolean {
  return /^\d{8}$/.test(s) && validDate(Number(s.slice(0, 4)), Number(s.slice(4, 6)), Number(s.slice(6, 8)));
}

function timeOk(s: string): boolean {
  const m = /^(\d{2}):(\d{2}):(\d{2})(\.\d{3})?$/.exec(s);
  return m !== null && Number(m[1]) < 24 && Number(m[2]) < 60 && Number(m[3]) <= 60;
}

/** Type check as QuickFIX's field convertors do. */
export function valueMatchesType(type: string, value: string): boolean {
  if (value === '') return false;
  switch (type) {
    case 'INT': return /^-?\d+$/.test(value);
    case 'NUMINGROUP': case 'SEQNUM': case 'LENGTH': return /^\d+$/.test(value);
    case 'FLOAT': case 'PRICE': case 'QTY': case 'AMT': case 'PRICEOFFSET': case 'PERCENTAGE':
      return /^-?(\d+(\.\d*)?|\.\d+)$/.test(value);
    case 'CHAR': return value.length === 1;
    case 'BOOLEAN': return value === 'Y' || value === 'N';
    case 'UTCTIMESTAMP': return value.length >= 17 && value[8] === '-' && dateOk(value.slice(0, 8)) && timeOk(value.slice(9));
    case 'UTCTIMEONLY': return timeOk(value);
    case 'UTCDATEONLY': case 'LOCALMKTDATE': return dateOk(value);
    case 'MONTHYEAR': return /^\d{6}(\d{2}|w\d)?$/.test(value);
    default: return true;
  }
}

export interface ValidateOptions { readonly strictOrder: boolean }

export function validateFix44(bytes: Uint8Array, dict: QfDictionary = stockFix44(), options: ValidateOptions = { strictOrder: true }): string[] {
  const errors: string[] = [];
  const text = Buffer.from(bytes).toString('latin1');
  if (!text.startsWith('8=FIX.4.4\x019=')) errors.push('does not start with 8=FIX.4.4|9=');
  const fields = splitFields(text, errors);
  const len = fields.length;
  if (len < 4 || fields[1]?.tag !== 9 || fields[2]?.tag !== 35 || fields[len - 1]?.tag !== 10) {
    errors.push('8, 9, 35 must open and 10 must close the message');
    return errors;
  }
  const bodyStart = text.indexOf('\x01', text.indexOf('\x019=') + 1) + 1;
  const trailerStart = text.lastIndexOf('\x0110=') + 1;
  if (Number(fields[1]?.value) !== trailerStart - bodyStart) errors.push(`BodyLength ${fields[1]?.value} but body is ${trailerStart - bodyStart} bytes`);
  let sum = 0;
  for (let i = 0; i < trailerStart; i++) sum += text.charCodeAt(i);
  const checksum = String(sum % 256).padStart(3, '0');
  if (fields[len - 1]?.value !== checksum) errors.push(`CheckSum ${fields[len - 1]?.value}, computed ${checksum}`);

  const msgType = fields[2]?.value ?? '';
  const message = dict.messages.get(msgType);
  if (!message) {
    errors.push(`MsgType ${msgType} not in dictionary`);
    return errors;
  }
  let h = 0;
  while (h < len && dict.header.allTags.has(fields[h]?.tag ?? 0)) h++;
  let t = len;
  while (t > h && dict.trailer.allTags.has(fields[t - 1]?.tag ?? 0)) t--;
  const check = (layout: QfLayout, from: number, to: number, where: string): void =>
    checkLayout(dict, layout, fields, from, to, where, options.strictOrder, errors);
  check(dict.header, 0, h, 'header');
  check(message.body, h, t, message.name);
  check(dict.trailer, t, len, 'trailer');
  return errors;
}

function checkLayout(
  dict: QfDictionary, layout: QfLayout, fields: readonly Field[], from: number, to: number, where: string,
  strictOrder: boolean, errors: string[],
): void {
  const seen = new Set<number>();
  let lastOrder = -1;
  let i = from;
  while (i < to) {
    const f = fields[i] as Field;
    const def = dict.fieldsByNumber.get(f.tag);
    const order = layout.order.get(f.tag);
    if (!def) errors.push(`${where}: tag ${f.tag} not in dictionary (373=0)`);
    else if (order === undefined) errors.push(`${where}: ${def.name} (${f.tag}) not defined here (373=2 or out of order)`);
    if (!def || order === undefined) { i++; continue; }
    if (seen.has(f.tag)) errors.push(`${where}: ${def.name} (${f.tag}) appears more than once`);
    if (strictOrder && order < lastOrder) errors.push(`${where}: ${def.name} (${f.tag}) out of dictionary order`);
    lastOrder = Math.max(lastOrder, order);
    seen.add(f.tag);
    if (!valueMatchesType(def.type, f.value)) errors.push(`${where}: ${def.name}=${JSON.stringify(f.value)} is not a ${def.type}`);
    else if (def.values && !(def.type === 'MULTIPLEVALUESTRING' ? f.value.split(' ') : [f.value]).every((v) => def.values?.has(v))) {
      errors.push(`${where}: ${def.name}=${f.value} not in its enumeration`);
    }
    const slot = layout.slots[order];
    i++;
    if (slot?.kind !== 'group') continue;
    const count = Number(f.value);
    const delimiter = slot.entry.slots[0]?.tag;
    let entries = 0;
    while (i < to && fields[i]?.tag === delimiter) {
      let j = i + 1;
      while (j < to && slot.entry.allTags.has(fields[j]?.tag ?? 0) && fields[j]?.tag !== delimiter) j++;
      checkLayout(dict, slot.entry, fields, i, j, `${where}.${def.name}[${entries}]`, strictOrder, errors);
      entries++;
      i = j;
    }
    if (entries !== count) errors.push(`${where}: ${def.name}=${count} but ${entries} entries start with the delimiter`);
  }
  for (const s of layout.slots) {
    if (s.required && !seen.has(s.tag)) errors.push(`${where}: required ${dict.fieldsByNumber.get(s.tag)?.name} (${s.tag}) missing`);
  }
  if (strictOrder) {
    for (const c of layout.requiredComponents) {
      if (![...c.tags].some((tag) => seen.has(tag))) errors.push(`${where}: required component ${c.name} absent`);
    }
  }
}
