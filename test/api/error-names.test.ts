// One list of error names: the ErrorName union of the gateway (ERROR_NAMES, HTTP_STATUS), the error
// table of docs/rest.md with its statuses, and the enum of the API schema must name the same errors.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorNameSchema } from '../../src/api/schemas.js';
import { ERROR_NAMES, HTTP_STATUS } from '../../src/gateway/errors.js';

/** The rows of the table under "## Errors" in docs/rest.md: name → HTTP status ('—' where none). */
function docsErrorTable(): Map<string, string> {
  const doc = fs.readFileSync(new URL('../../docs/rest.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('\n## Errors\n'), doc.indexOf('\n## ', doc.indexOf('\n## Errors\n') + 1));
  const rows = [...section.matchAll(/^\| (\d{3}|—) \| `([a-z_]+)` \|/gm)];
  return new Map(rows.map(([, status, name]) => [name!, status!]));
}

describe('error names', () => {
  it('the docs\' error table names exactly the ErrorName union', () => {
    const table = docsErrorTable();
    expect([...table.keys()].sort()).toEqual([...ERROR_NAMES].sort());
  });

  it('gives each HTTP error the status the docs give it, and a name without one only in the docs', () => {
    const table = docsErrorTable();
    for (const [name, status] of table) {
      expect(status, name).toBe(name in HTTP_STATUS ? String(HTTP_STATUS[name as keyof typeof HTTP_STATUS]) : '—');
    }
  });

  it('the API schema of an error body allows exactly the HTTP error names', () => {
    expect([...ErrorNameSchema.enum].sort()).toEqual(Object.keys(HTTP_STATUS).sort());
  });
});
