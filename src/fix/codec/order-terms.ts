// The terms of an order that NewOrderSingle (D), OrderCancelReplaceRequest (G) and the
// ExecutionReport (8) describing it share. Quantities and prices stay exact decimals.
import type { OrdTypeValue, SideValue, TimeInForceValue } from '../dictionary.js';
import type { FixDecimal } from './decimal.js';

export interface OrderTerms {
  readonly symbol: string;
  readonly side: SideValue;
  readonly orderQty: FixDecimal;
  readonly ordType: OrdTypeValue;
  readonly price: FixDecimal | null;
  readonly stopPx: FixDecimal | null;
  /** Absent means Day (FIX default). */
  readonly timeInForce: TimeInForceValue | null;
}
