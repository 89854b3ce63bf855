import type { CurrencyMemory } from '../../../machines/dashboard.machine';

/** The dashboard's currency, kept in local storage per user (cleared with the rest of it at logout). */
export function localCurrencyMemory(userId: number): CurrencyMemory {
  const key = `sb.dashboard-currency.${userId}`;
  return {
    read: () => globalThis.localStorage?.getItem(key) ?? null,
    write: (currency) => globalThis.localStorage?.setItem(key, currency),
  };
}
