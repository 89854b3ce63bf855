import type { ColumnType, Generated } from 'kysely';

// The platform's shared tables: notifications and their counts, idempotency keys, files, the mail outbox, jobs
// and the seed's fixtures. A part of server/db/schema.ts's Database.

/** A user's counts; kept by triggers in `user_feed_count_shards` (a row's shard: its id % 16), summed to read. */
export interface UserFeedCountTable {
  user_id: number;
  notifications: number;
  unread_notifications: number;
  activity: number;
}

export interface NotificationTable {
  id: Generated<number>;
  user_id: number;
  /** 'new_order', 'ticket_delivered', 'payout_processed'... */
  name: string;
  description: string;
  /** 0 unread, 1 viewed */
  viewed: ColumnType<number, number | undefined, number>;
  created_at: string;
  /** The portal path the notification is about (`/sales/pending?order=12`), opened from the panel; null: none. */
  link: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SeedFixtureTable {
  name: string;
  applied_at: string;
}

export interface IdempotencyKeyTable {
  user_id: number;
  operation_id: string;
  idem_key: string;
  /** SHA-256 of the request (method, path, query, body, files): the same key with another request is refused. */
  request_hash: string;
  /** The kept reply's HTTP status; 0 only inside the transaction that is still running the call. */
  status: number;
  /** The kept reply's JSON body. */
  response: string;
  created_at: string;
  expires_at: string;
}

export interface FileTable {
  /** The random name the file is stored under in DATA_DIR/uploads. */
  id: string;
  owner_id: number;
  operation_id: string;
  field: string;
  /** What the first bytes show: 'pdf', 'jpg', 'png', 'xlsx', 'csv'... */
  kind: string;
  mime: string;
  size: number;
  sha256: string;
  original_name: string;
  created_at: string;
}

/** Mail kept for the development mail viewer when no SMTP server is configured (server/mail). */
export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  body: string;
  created_at: string;
}

/** A file of a message kept in the outbox (the development mail viewer offers it). */
export interface MailOutboxAttachmentTable {
  id: Generated<number>;
  mail_id: number;
  filename: string;
  mime: string;
  content_base64: string;
}

/** A job that runs once across every server process (migration 0034, server/ops/jobs.ts). */
export interface OpsJobTable {
  name: string;
  /** When a process last claimed a run (ISO); a run is due once this is older than the job's interval. */
  claimed_at: string;
  runs: ColumnType<number, number | undefined, number>;
  last_ok_at: ColumnType<string | null, string | null | undefined, string | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the last good run left (a backup: its file and size, as JSON). */
  detail: ColumnType<string | null, string | null | undefined, string | null>;
}
