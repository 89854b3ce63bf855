/**
 * Answers of read calls kept for a moment (`x-cache-ms` in the contract): the trade search, the event page, a
 * listing's price and Inventory's pages. Fifty buyers refreshing the same search read the same rows; the second
 * and later ones within the moment get the text the first one was answered, without the queries or the JSON.
 *
 * An answer is served again only while all of this holds, so it is never older than what the database holds:
 * - the same operation, the same caller (their own listings are left out of their search, their recently viewed
 *   events are theirs) and the same path and query, byte for byte;
 * - the database's version is the one read before the answer's first query (SQLite's count of rows written
 *   through our connection and its data_version for commits by another process: any write anywhere, a
 *   purchase, a price change, a new listing, a login, makes every kept answer a miss);
 * - its moment has not passed. That bounds what depends on time alone: a hold whose 15 minutes run out is
 *   released by the next answer that is read again, at most `x-cache-ms` later.
 *
 * Only SQLite reads outside a transaction have a version; on PostgreSQL, or while a transaction is open on the
 * connection, nothing is kept or served. The cache is bounded by entries and by bytes, oldest out first.
 */
export interface KeptAnswer {
  version: string;
  /** The clock's milliseconds after which it is not served. */
  until: number;
  text: string;
}

export interface AnswerCacheLimits {
  entries: number;
  bytes: number;
}

export const ANSWER_CACHE_LIMITS: AnswerCacheLimits = { entries: 2000, bytes: 16 * 1024 * 1024 };

export class AnswerCache {
  readonly #kept = new Map<string, KeptAnswer>();
  #bytes = 0;

  constructor(readonly limits: AnswerCacheLimits = ANSWER_CACHE_LIMITS) {}

  /** The kept text for `key` if it was read at `version` and its moment has not passed at `now`. */
  get(key: string, version: string, now: number): string | undefined {
    const kept = this.#kept.get(key);
    if (kept && kept.version === version && now < kept.until) return kept.text;
    if (kept) this.#drop(key, kept);
    return undefined;
  }

  set(key: string, answer: KeptAnswer): void {
    const size = sizeOf(key, answer.text);
    if (size > this.limits.bytes / 8) return; // one answer never takes the room of many
    const old = this.#kept.get(key);
    if (old) this.#drop(key, old);
    this.#kept.set(key, answer);
    this.#bytes += size;
    for (const [oldest, entry] of this.#kept) {
      if (this.#kept.size <= this.limits.entries && this.#bytes <= this.limits.bytes) break;
      this.#drop(oldest, entry);
    }
  }

  get size(): number {
    return this.#kept.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  #drop(key: string, entry: KeptAnswer) {
    this.#kept.delete(key);
    this.#bytes -= sizeOf(key, entry.text);
  }
}

/** What an entry costs, near enough: V8 keeps most of our (ASCII) JSON one byte a character. */
function sizeOf(key: string, text: string): number {
  return key.length + text.length + 64;
}
