// Request bodies of the console read with the fixture's readers (src/config/check.ts), so a value
// is refused with the same wording everywhere; their InvalidValue becomes a 400 naming the field.
import { InvalidValue } from '../config/errors.js';
import { ApiError } from '../gateway/errors.js';

export function checked<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof InvalidValue) throw new ApiError('bad_request', `${e.path}: ${e.reason}`, { field: e.path });
    throw e;
  }
}
