import { useSyncExternalStore } from 'react';
import { DISPLAY_CURRENCY_CODES, type DisplayCurrencyCode } from '@pod/domain';

/** Spec §3: the display currency lives in local storage under this key; USD by default. */
export const PREFERRED_CURRENCY_KEY = 'preferred-currency';
export const DEFAULT_DISPLAY_CURRENCY: DisplayCurrencyCode = 'USD';

function isDisplayCurrency(value: unknown): value is DisplayCurrencyCode {
  return typeof value === 'string' && (DISPLAY_CURRENCY_CODES as readonly string[]).includes(value);
}

/** The stored choice, or USD when nothing (or something not offered) is stored, or storage is blocked. */
export function readDisplayCurrency(): DisplayCurrencyCode {
  try {
    const stored = window.localStorage.getItem(PREFERRED_CURRENCY_KEY);
    return isDisplayCurrency(stored) ? stored : DEFAULT_DISPLAY_CURRENCY;
  } catch {
    return DEFAULT_DISPLAY_CURRENCY;
  }
}

function subscribe(listener: () => void) {
  // Another tab changed it.
  const onStorage = (event: StorageEvent) => {
    if (event.key === PREFERRED_CURRENCY_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener('storage', onStorage);
  };
}

/** The display currency every money query asks for (`currency=`). */
export function useDisplayCurrency(): DisplayCurrencyCode {
  return useSyncExternalStore(subscribe, readDisplayCurrency, () => DEFAULT_DISPLAY_CURRENCY);
}
