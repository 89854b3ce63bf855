import { AsyncLocalStorage } from 'node:async_hooks';
import type { PurchaseMethod } from './metrics';

/** A movement of money a request made, logged at info once its transaction committed. */
export interface MoneyFact {
  /** What happened: deposit_approved, refund, payout_requested, payout_sent, payout_failed... */
  action: string;
  amount: number;
  currency: string;
  /** The ids it concerns (deposit_id, order_id, payout_id, seller_id...) and any other amounts (fee, net). */
  [detail: string]: string | number | null | undefined;
}

/**
 * What one API request's log line and metrics say about it besides method, path and status: set by the router
 * (the contract's operation, the caller's account) and by handlers (a domain outcome, money moved). Never a
 * token or a password: an account is its id.
 */
export interface RequestFacts {
  requestId: string;
  operation: string | null;
  accountId: number | null;
  /** The handler's word for how it went (confirmed, insufficient_funds...); else the status's class. */
  outcome: string | null;
  purchase: { method: PurchaseMethod; outcome: string } | null;
  money: MoneyFact[] | null;
}

export const newFacts = (requestId: string): RequestFacts => ({
  requestId,
  operation: null,
  accountId: null,
  outcome: null,
  purchase: null,
  money: null,
});

/** The facts of the request being served, for the log lines written while it runs (server/logger.ts). */
export const currentRequest = new AsyncLocalStorage<RequestFacts>();

/** A request's outcome in a word: the handler's own, or what its status says. */
export const outcomeOf = (facts: RequestFacts, status: number): string =>
  facts.outcome ?? (status < 400 ? 'ok' : status < 500 ? 'refused' : 'failed');

/** Notes a purchase confirmation's result on the request (counted once the answer is out and committed). */
export function notePurchase(facts: RequestFacts | undefined, method: PurchaseMethod, outcome: string) {
  if (!facts) return;
  facts.purchase = { method, outcome };
  facts.outcome = outcome;
}

/** Notes money the request moved (logged at info once the answer is out and committed). */
export function noteMoney(facts: RequestFacts | undefined, fact: MoneyFact) {
  if (!facts) return;
  facts.money = [...(facts.money ?? []), fact];
}
