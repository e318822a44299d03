// Reject values, named as the spec's error table names them.
import type { OrderRecord, Reject } from './types.js';

export function badRequest(field: string, message: string): Reject {
  return { ok: false, name: 'bad_request', message, field };
}

export function notFound(message: string): Reject {
  return { ok: false, name: 'not_found', message };
}

export function invalidOrder(field: string, message: string): Reject {
  return { ok: false, name: 'invalid_order', message, field };
}

export function marketClosed(message: string): Reject {
  return { ok: false, name: 'market_closed', message };
}

export function killSwitchActive(message: string): Reject {
  return { ok: false, name: 'kill_switch_active', message };
}

/** DECISIONS: the 409 returns the original order; it is attached while the engine still holds it. */
export function duplicateClientId(clientId: string, orderId: string, order: OrderRecord | undefined): Reject {
  const message = `client_id ${JSON.stringify(clientId)} was already used for order ${orderId}`;
  return order === undefined
    ? { ok: false, name: 'duplicate_client_id', message, field: 'client_id', orderId }
    : { ok: false, name: 'duplicate_client_id', message, field: 'client_id', orderId, order };
}
