// Plain-text tables for `tas` listings (`--json` prints the API's JSON instead).

export interface Column<T> { readonly title: string; readonly value: (row: T) => string; readonly right?: boolean }

export function table<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((r) => columns.map((c) => c.value(r).replace(/\s+/g, ' ')));
  const widths = columns.map((c, i) => Math.max(c.title.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: readonly string[]): string =>
    values.map((v, i) => (columns[i]!.right ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(columns.map((c) => c.title.toUpperCase())), ...cells.map(line)].join('\n');
}
