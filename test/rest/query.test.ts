// Query parsing and paging of the REST lists.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/gateway/errors.js';
import { cut, listLimit, readQuery } from '../../src/gateway/rest/query.js';
import { decimalId, endpointOf } from '../../src/gateway/rest/route.js';

function refusal(fn: () => unknown): { name: string; field?: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return { name: (e as ApiError).errorName, field: (e as ApiError).field };
  }
  throw new Error('not refused');
}

describe('readQuery', () => {
  it('decodes the allowed parameters', () => {
    expect([...readQuery('symbol=EURUSD&limit=5', ['symbol', 'limit'])]).toEqual([['symbol', 'EURUSD'], ['limit', '5']]);
    expect([...readQuery('symbol=A%2BB', ['symbol'])]).toEqual([['symbol', 'A+B']]);
    expect(readQuery('', []).size).toBe(0);
  });

  it('refuses unknown and repeated names, naming them', () => {
    expect(refusal(() => readQuery('foo=1', ['limit']))).toEqual({ name: 'bad_request', field: 'foo' });
    expect(refusal(() => readQuery('limit=1&limit=2', ['limit']))).toEqual({ name: 'bad_request', field: 'limit' });
    expect(refusal(() => readQuery('x', []))).toEqual({ name: 'bad_request', field: 'x' });
    expect(refusal(() => readQuery(`${'n'.repeat(500)}=1`, [])).field).toHaveLength(64);
  });
});

describe('listLimit', () => {
  it('defaults to 500 and takes 1..1000', () => {
    expect(listLimit(new Map())).toBe(500);
    expect(listLimit(new Map([['limit', '1']]))).toBe(1);
    expect(listLimit(new Map([['limit', '1000']]))).toBe(1000);
    for (const bad of ['0', '1001', '-1', '1.5', '', 'ten', '1e3', '00001']) {
      expect(refusal(() => listLimit(new Map([['limit', bad]])))).toEqual({ name: 'bad_request', field: 'limit' });
    }
  });
});

describe('cut', () => {
  it('cuts at the limit and names the last item sent as the cursor', () => {
    expect(cut([1, 2, 3], 2, String)).toEqual({ items: [1, 2], nextCursor: '2' });
    expect(cut([1, 2], 2, String)).toEqual({ items: [1, 2], nextCursor: null });
    expect(cut([], 2, String)).toEqual({ items: [], nextCursor: null });
  });
});

describe('decimalId and endpointOf', () => {
  it('accept plain positive decimal ids only', () => {
    expect(decimalId('129')).toBe(129);
    for (const bad of ['0', '007', '-1', '1e3', '12x', '', ' 1', '99999999999999999']) expect(decimalId(bad)).toBeNull();
  });

  it('names routes with their parameters', () => {
    expect(endpointOf({ method: 'DELETE', pattern: '/v1/positions/:ticket' })).toBe('DELETE /v1/positions/{ticket}');
  });
});
