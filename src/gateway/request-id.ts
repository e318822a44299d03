// Request ids: unique per process start and cheap (no randomness per request).
import { randomBytes } from 'node:crypto';

const bootPrefix = randomBytes(4).toString('hex');
let counter = 0;

export function nextRequestId(): string {
  counter = (counter + 1) >>> 0;
  return `${bootPrefix}-${counter.toString(36)}`;
}
