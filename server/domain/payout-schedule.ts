/**
 * When payouts go and arrive. The rule: the back office sends requested payouts in one payout run each working day
 * (Monday to Friday) at 12:00 UK time; a payout requested before a run goes in it, one requested after it in the
 * next working day's run. A bank transfer (Faster Payments, SEPA) reaches the bank by the working day after its
 * run. Bank holidays are not known here: a run due on one goes the next working day, later than promised.
 */
export const PAYOUT_RUN_HOUR = 12;
export const PAYOUT_TIME_ZONE = 'Europe/London';

const london = new Intl.DateTimeFormat('en-GB', {
  timeZone: PAYOUT_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The London calendar date ('YYYY-MM-DD') and minutes past midnight of an instant. */
function inLondon(at: Date): { date: string; minutes: number } {
  const p = Object.fromEntries(london.formatToParts(at).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, minutes: Number(p.hour) * 60 + Number(p.minute) };
}

const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const isWorkingDay = (date: string) => {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day !== 0 && day !== 6;
};
const nextWorkingDay = (date: string) => {
  let d = addDays(date, 1);
  while (!isWorkingDay(d)) d = addDays(d, 1);
  return d;
};

/** The instant of 12:00 London time on a London date (11:00 or 12:00 UTC, by the season). */
function runInstant(date: string): Date {
  const guess = new Date(`${date}T${String(PAYOUT_RUN_HOUR).padStart(2, '0')}:00:00Z`);
  const offset = inLondon(guess).minutes - PAYOUT_RUN_HOUR * 60;
  return new Date(guess.getTime() - offset * 60_000);
}

/** The payout run a payout requested at `at` goes in. */
export function payoutRunAfter(at: Date): Date {
  const here = inLondon(at);
  const today = isWorkingDay(here.date) && here.minutes < PAYOUT_RUN_HOUR * 60;
  return runInstant(today ? here.date : nextWorkingDay(here.date));
}

/** The day a payout sent at `sent` (a run) reaches the bank: the next working day ('YYYY-MM-DD'). */
export const arrivalAfter = (sent: Date) => nextWorkingDay(inLondon(sent).date);

/** When a payout is expected in the bank: in progress, by its run; sent, by when it was sent; failed, never. */
export function arrivesBy(p: { status: string; created_at: string; decided_at: string | null }): string | null {
  if (p.status === 'failed') return null;
  if (p.status === 'sent' && p.decided_at) return arrivalAfter(new Date(p.decided_at));
  return arrivalAfter(payoutRunAfter(new Date(p.created_at)));
}

const dayText = new Intl.DateTimeFormat('en-GB', {
  timeZone: PAYOUT_TIME_ZONE,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});
/** 'Mon 30 Nov' of a London date or an instant. */
export const dayOf = (at: Date | string) =>
  dayText.format(typeof at === 'string' ? new Date(`${at}T12:00:00Z`) : at).replace(',', '');

export interface NextPayout {
  can_request: boolean;
  message: string;
  run_at: string;
  arrives_by: string;
}

/**
 * When the seller's next payout can be requested and when it would arrive, in words: now (with its run and
 * arrival), or what stands in the way (no payout account, less than the minimum available, the most payouts in
 * progress).
 */
export function nextPayout(input: {
  now: Date;
  hasAccount: boolean;
  /** the largest available balance of any currency, and that currency */
  best: { currency: string; available: number } | null;
  minimum: number;
  open: number;
  maxOpen: number;
}): NextPayout {
  const run = payoutRunAfter(input.now);
  const arrives = arrivalAfter(run);
  const when = `it goes in the payout run of ${dayOf(run)} at 12:00 UK time and arrives by ${dayOf(arrives)}`;
  const base = { run_at: run.toISOString(), arrives_by: arrives };
  const minimum = (input.minimum / 100).toFixed(2);
  if (!input.hasAccount) {
    return { ...base, can_request: false, message: `Add a payout account first. A payout requested then: ${when}.` };
  }
  if (input.open >= input.maxOpen) {
    return {
      ...base,
      can_request: false,
      message: `You have ${input.open} payouts in progress, the most at one time: you can request another once one is sent (payouts go each working day at 12:00 UK time).`,
    };
  }
  if (!input.best || input.best.available < input.minimum) {
    return {
      ...base,
      can_request: false,
      message: `You can request a payout once ${minimum} of a currency is available (completed sales make it available). Requested today, ${when}.`,
    };
  }
  return { ...base, can_request: true, message: `You can request a payout now: ${when}.` };
}
