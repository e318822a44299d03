// The stock QuickFIX FIX44 data dictionary (the copy jspurefix ships), read with a small XML reader
// so the tests can check outbound messages the way a validating QuickFIX client would.
// QuickFIX semantics kept here: a field inside a component is required only when every enclosing
// component is required too (DataDictionary::addXMLComponentFields), and group requiredness is
// relative to the group entry.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface QfField {
  readonly number: number;
  readonly name: string;
  readonly type: string;
  readonly values: ReadonlySet<string> | null;
}

/** One element of a flattened layout: components are inlined, groups keep their entry layout. */
export type QfSlot =
  | { readonly kind: 'field'; readonly tag: number; readonly required: boolean }
  | { readonly kind: 'group'; readonly tag: number; readonly required: boolean; readonly entry: QfLayout };

export interface QfLayout {
  readonly slots: readonly QfSlot[];
  /** Position of every tag in dictionary order (fields of nested groups not included). */
  readonly order: ReadonlyMap<number, number>;
  /** Every tag that may appear in this layout, nested groups included. */
  readonly allTags: ReadonlySet<number>;
  /** Required components, each as the set of tags that would show it is present. */
  readonly requiredComponents: readonly { readonly name: string; readonly tags: ReadonlySet<number> }[];
}

export interface QfDictionary {
  readonly fieldsByNumber: ReadonlyMap<number, QfField>;
  readonly fieldsByName: ReadonlyMap<string, QfField>;
  readonly header: QfLayout;
  readonly trailer: QfLayout;
  readonly messages: ReadonlyMap<string, { readonly name: string; readonly body: QfLayout }>;
}

interface XmlNode { readonly name: string; readonly attrs: Record<string, string>; readonly children: XmlNode[] }

/** Enough XML for QuickFIX dictionaries: elements and quoted attributes, no text content. */
function parseXml(text: string): XmlNode {
  const root: XmlNode = { name: '#root', attrs: {}, children: [] };
  const stack: XmlNode[] = [root];
  const tagRe = /<(\/?)([A-Za-z_][\w.-]*)([^>]*?)(\/?)>/g;
  for (let m = tagRe.exec(text); m !== null; m = tagRe.exec(text)) {
    const [, closing, name = '', rawAttrs = '', selfClosing] = m;
    if (closing) {
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of rawAttrs.matchAll(/([\w:-]+)\s*=\s*(?:'([^']*)'|"([^"]*)")/g)) attrs[a[1] ?? ''] = a[2] ?? a[3] ?? '';
    const node: XmlNode = { name, attrs, children: [] };
    stack[stack.length - 1]?.children.push(node);
    if (!selfClosing) stack.push(node);
  }
  const fix = root.children.find((c) => c.name === 'fix');
  if (!fix) throw new Error('not a QuickFIX dictionary: no <fix> element');
  return fix;
}

function child(node: XmlNode, name: string): XmlNode {
  const found = node.children.find((c) => c.name === name);
  if (!found) throw new Error(`dictionary has no <${name}>`);
  return found;
}

export function loadQfDictionary(xmlPath: string): QfDictionary {
  const fix = parseXml(readFileSync(xmlPath, 'latin1'));
  const fieldsByNumber = new Map<number, QfField>();
  const fieldsByName = new Map<string, QfField>();
  for (const f of child(fix, 'fields').children) {
    const values = f.children.filter((v) => v.name === 'value').map((v) => v.attrs.enum ?? '');
    const field: QfField = {
      number: Number(f.attrs.number), name: f.attrs.name ?? '', type: f.attrs.type ?? '',
      values: values.length > 0 ? new Set(values) : null,
    };
    fieldsByNumber.set(field.number, field);
    fieldsByName.set(field.name, field);
  }
  const components = new Map<string, XmlNode>();
  for (const c of child(fix, 'components').children) components.set(c.attrs.name ?? '', c);

  const tagOf = (name: string): number => {
    const f = fieldsByName.get(name);
    if (!f) throw new Error(`dictionary references unknown field ${name}`);
    return f.number;
  };

  const layoutOf = (items: readonly XmlNode[]): QfLayout => {
    const slots: QfSlot[] = [];
    const allTags = new Set<number>();
    const requiredComponents: { name: string; tags: Set<number> }[] = [];
    const walk = (nodes: readonly XmlNode[], enclosingRequired: boolean, componentTags: Set<number>[]): void => {
      for (const n of nodes) {
        const required = enclosingRequired && n.attrs.required === 'Y';
        if (n.name === 'field') {
          const tag = tagOf(n.attrs.name ?? '');
          slots.push({ kind: 'field', tag, required });
          allTags.add(tag);
          for (const t of componentTags) t.add(tag);
        } else if (n.name === 'group') {
          const tag = tagOf(n.attrs.name ?? '');
          const entry = layoutOf(n.children);
          slots.push({ kind: 'group', tag, required, entry });
          allTags.add(tag);
          for (const t of entry.allTags) allTags.add(t);
          for (const t of componentTags) { t.add(tag); for (const e of entry.allTags) t.add(e); }
        } else if (n.name === 'component') {
          const def = components.get(n.attrs.name ?? '');
          if (!def) throw new Error(`dictionary references unknown component ${n.attrs.name}`);
          const tags = new Set<number>();
          if (required) requiredComponents.push({ name: n.attrs.name ?? '', tags });
          walk(def.children, required, [...componentTags, tags]);
        }
      }
    };
    walk(items, true, []);
    const order = new Map<number, number>();
    slots.forEach((s, i) => order.set(s.tag, i));
    return { slots, order, allTags, requiredComponents };
  };

  const messages = new Map<string, { name: string; body: QfLayout }>();
  for (const m of child(fix, 'messages').children) {
    messages.set(m.attrs.msgtype ?? '', { name: m.attrs.name ?? '', body: layoutOf(m.children) });
  }
  return {
    fieldsByNumber, fieldsByName, messages,
    header: layoutOf(child(fix, 'header').children),
    trailer: layoutOf(child(fix, 'trailer').children),
  };
}

/** The FIX44.xml jspurefix installs: QuickFIX's spec/FIX44.xml. */
export function stockFix44Path(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('jspurefix/package.json')), 'data', 'FIX44.xml');
}

let stock: QfDictionary | null = null;
export function stockFix44(): QfDictionary {
  stock ??= loadQfDictionary(stockFix44Path());
  return stock;
}
