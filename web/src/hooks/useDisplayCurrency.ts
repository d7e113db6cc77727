import { useSyncExternalStore } from 'react';
import { DISPLAY_CURRENCY_CODES, type DisplayCurrencyCode } from '@pod/domain';

/** Spec §3: the display currency lives in local storage under this key; USD by default. */
export const PREFERRED_CURRENCY_KEY = 'preferred-currency';
export const DEFAULT_DISPLAY_CURRENCY: DisplayCurrencyCode = 'USD';

/** The choice made while storage is blocked (some private modes): kept for this page's lifetime. */
let memoryChoice: DisplayCurrencyCode | undefined;
/** This tab's subscribers: the `storage` event reaches only the other tabs. */
const sameTabListeners = new Set<() => void>();

function isDisplayCurrency(value: unknown): value is DisplayCurrencyCode {
  return typeof value === 'string' && (DISPLAY_CURRENCY_CODES as readonly string[]).includes(value);
}

/** The stored choice, or USD when nothing (or something not offered) is stored, or storage is blocked. */
export function readDisplayCurrency(): DisplayCurrencyCode {
  try {
    const stored = window.localStorage.getItem(PREFERRED_CURRENCY_KEY);
    return isDisplayCurrency(stored) ? stored : DEFAULT_DISPLAY_CURRENCY;
  } catch {
    return memoryChoice ?? DEFAULT_DISPLAY_CURRENCY;
  }
}

/**
 * Stores the choice and tells every subscriber in this tab at once: every money query's key
 * holds the currency, so each page on screen asks again in the new one.
 */
export function writeDisplayCurrency(currency: DisplayCurrencyCode): void {
  if (readDisplayCurrency() === currency) return;
  try {
    window.localStorage.setItem(PREFERRED_CURRENCY_KEY, currency);
  } catch {
    memoryChoice = currency;
  }
  sameTabListeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  // Another tab changed it.
  const onStorage = (event: StorageEvent) => {
    if (event.key === PREFERRED_CURRENCY_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  sameTabListeners.add(listener);
  return () => {
    window.removeEventListener('storage', onStorage);
    sameTabListeners.delete(listener);
  };
}

/** The display currency every money query asks for (`currency=`). */
export function useDisplayCurrency(): DisplayCurrencyCode {
  return useSyncExternalStore(subscribe, readDisplayCurrency, () => DEFAULT_DISPLAY_CURRENCY);
}
