// `npm run api-docs`: writes the OpenAPI and AsyncAPI documents the service serves into docs/api/,
// where they are kept in the repository (test/api/documents.test.ts fails while they differ).
import fs from 'node:fs';
import path from 'node:path';
import { packageFile, packageVersion } from '../config/load.js';
import { asyncApiDocument } from './asyncapi.js';
import { openApiDocument } from './openapi.js';

const dir = packageFile('docs', 'api');
fs.mkdirSync(dir, { recursive: true });
const version = packageVersion();
for (const [name, doc] of [['openapi.json', openApiDocument(version)], ['asyncapi.json', asyncApiDocument(version)]] as const) {
  fs.writeFileSync(path.join(dir, name), `${JSON.stringify(doc, null, 2)}\n`);
  process.stdout.write(`wrote ${path.join('docs', 'api', name)}\n`);
}
