import type { CoreMessageCode } from '../messages.js';

/** A price that is a number, free, or to be announced (transport prices; also ticket prices). */
export interface PriceChoice {
  /** Cents; null = none given. */
  price_cents: number | null;
  is_free: boolean;
  is_price_tbd: boolean;
}

/**
 * Free and to be announced exclude each other; otherwise a price of at least 0 is required.
 * Returns the message code of what is wrong, or null.
 */
export function checkPriceChoice(
  choice: PriceChoice,
  missingPrice: CoreMessageCode = 'seatPriceInvalid',
): CoreMessageCode | null {
  if (choice.is_free && choice.is_price_tbd) return 'priceChoiceExclusive';
  if (choice.is_free || choice.is_price_tbd) return null;
  if (choice.price_cents === null || !Number.isInteger(choice.price_cents) || choice.price_cents < 0) return missingPrice;
  return null;
}
