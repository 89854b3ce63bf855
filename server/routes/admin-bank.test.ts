import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camt053Of, type FixtureLine, seedStatementFixture } from '../domain/bank/testing';
import { auditLedger, walletBalances } from '../domain/ledger';
import { topUpReference } from '../domain/wallet';
import { freshServer } from '../test-support';

type Server = Awaited<ReturnType<typeof freshServer>>;

function multipart(file: { name: string; type: string; text: string }) {
  const boundary = `----sbbank${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${file.name}"\r\ncontent-type: ${file.type}\r\n\r\n`,
    ),
    Buffer.from(file.text),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

describe('bank-statement matching of top-ups', () => {
  let s: Server;
  let admin: string;
  let lines: FixtureLine[];
  let keys = 0;

  beforeAll(async () => {
    s = await freshServer();
    lines = await seedStatementFixture(s.db, s.clock.now());
    admin = await s.loginAs('admin@demo.test');
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  const upload = async (name: string, type: string, text: string, token = admin) => {
    const { body, type: contentType } = multipart({ name, type, text });
    const res = await s.app.request('/api/admin/bank-statements', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': contentType,
        'idempotency-key': `bank-import-${++keys}`,
      },
      body,
    });
    return { status: res.status, body: (await res.json()) as { data: Record<string, number>; errors?: unknown[] } };
  };
  const depositStatus = async (id: number) =>
    (await s.db.selectFrom('deposits').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  it('credits at least 90% of a 200-line statement without a person, and none wrongly', async () => {
    expect(lines).toHaveLength(200);
    const res = await upload('statement.xml', 'application/xml', camt053Of(lines));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      format: 'camt053',
      lines_total: 201,
      credit_lines: 200,
      skipped_lines: 1,
      already_imported: 4,
      credited: 184,
      to_review: 12,
    });
    expect((res.body.data.credited ?? 0) / 200).toBeGreaterThanOrEqual(0.9);
    // every top-up a line names is approved, credited once with its own amount, to its own seller's wallet
    for (const l of lines.filter((x) => x.depositId !== null)) {
      const id = l.depositId ?? 0;
      expect(await depositStatus(id)).toBe('approved');
      const entry = await s.db
        .selectFrom('ledger_entries')
        .innerJoin('ledger_lines', 'ledger_lines.entry_id', 'ledger_entries.id')
        .innerJoin('ledger_accounts', 'ledger_accounts.id', 'ledger_lines.account_id')
        .select(['ledger_lines.amount', 'ledger_accounts.owner_id'])
        .where('ledger_entries.kind', '=', 'deposit')
        .where('ledger_entries.reference', '=', String(id))
        .where('ledger_accounts.kind', '=', 'wallet')
        .execute();
      const deposit = await s.db
        .selectFrom('deposits')
        .select('user_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(entry).toEqual([{ amount: l.amount, owner_id: deposit.user_id }]);
    }
    // the part and over-payments wait, their top-ups still pending
    const waiting = await s.db
      .selectFrom('bank_statement_lines')
      .select(['reason'])
      .where('status', '=', 'review')
      .execute();
    expect(waiting.map((w) => w.reason).sort()).toEqual(
      [
        ...Array(4).fill('over_payment'),
        ...Array(4).fill('part_payment'),
        ...Array(4).fill('unknown_reference'),
      ].sort(),
    );
    const typos = await s.db
      .selectFrom('bank_statement_lines')
      .select('id')
      .where('reason', '=', 'typo_corrected')
      .execute();
    expect(typos).toHaveLength(4);
    expect(await auditLedger(s.db)).toEqual([]);
    const audited = await s.db
      .selectFrom('admin_audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'deposit.approved')
      .executeTakeFirstOrThrow();
    expect(Number(audited.n)).toBe(184);
  });

  it('credits nothing twice when the same statement is imported again', async () => {
    const before = await s.db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await upload('statement-again.xml', 'application/xml', camt053Of(lines));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ credit_lines: 200, already_imported: 200, credited: 0, to_review: 0 });
    const after = await s.db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(await auditLedger(s.db)).toEqual([]);
  });

  it('lists the waiting lines with their candidates; a person matches one, crediting what arrived, once', async () => {
    const list = await s.json('GET', '/admin/bank-statement-lines', undefined, admin);
    const page = (await list.json()) as {
      data: {
        lines: Array<Record<string, unknown> & { candidates: Array<{ id: number; seller_id: number }> }>;
        meta: { total: number };
      };
    };
    expect(page.data.meta.total).toBe(12);
    const part = page.data.lines.find((l) => l.reason === 'part_payment');
    if (!part) throw new Error('no part-payment line');
    expect(part.candidates).toHaveLength(1);
    const candidate = part.candidates[0] ?? { id: 0, seller_id: 0 };
    const before = (await walletBalances(s.db, candidate.seller_id)).get('EUR') ?? 0;
    const match = () =>
      s.json('POST', `/admin/bank-statement-lines/${part.id}/match`, { deposit_id: candidate.id }, admin);
    const [one, two] = [await match(), await match()];
    expect(one.status).toBe(200);
    expect(two.status).toBe(200);
    expect((await walletBalances(s.db, candidate.seller_id)).get('EUR')).toBe(before + Number(part.amount));
    expect(await depositStatus(candidate.id)).toBe('approved');
    // the line cannot be dismissed now, nor another line matched to the same top-up
    expect(
      (await s.json('POST', `/admin/bank-statement-lines/${part.id}/dismiss`, { reason: 'x' }, admin)).status,
    ).toBe(409);
    const other = page.data.lines.find((l) => l.reason === 'over_payment');
    const steal = await s.json(
      'POST',
      `/admin/bank-statement-lines/${other?.id}/match`,
      { deposit_id: candidate.id },
      admin,
    );
    expect(steal.status).toBe(409);
    const line = await s.db
      .selectFrom('bank_statement_lines')
      .select(['status', 'deposit_id'])
      .where('id', '=', Number(other?.id))
      .executeTakeFirstOrThrow();
    expect(line).toEqual({ status: 'review', deposit_id: null });
    expect(await auditLedger(s.db)).toEqual([]);
  });

  it('dismisses a line with a reason, once, in the audit log', async () => {
    const row = await s.db
      .selectFrom('bank_statement_lines')
      .select('id')
      .where('reason', '=', 'unknown_reference')
      .where('status', '=', 'review')
      .executeTakeFirstOrThrow();
    const res = await s.json(
      'POST',
      `/admin/bank-statement-lines/${row.id}/dismiss`,
      { reason: 'Sent back to the payer' },
      admin,
    );
    expect(res.status).toBe(200);
    expect(
      (await s.json('POST', `/admin/bank-statement-lines/${row.id}/dismiss`, { reason: 'again' }, admin)).status,
    ).toBe(200);
    const logged = await s.db
      .selectFrom('admin_audit_log')
      .select(['detail'])
      .where('action', '=', 'bank_line.dismissed')
      .execute();
    expect(logged).toEqual([{ detail: 'Sent back to the payer' }]);
    const queues = (await (await s.json('GET', '/admin/queues', undefined, admin)).json()) as {
      data: { queues: Array<{ queue: string; count: number }> };
    };
    expect(queues.data.queues.find((q) => q.queue === 'bank_lines')?.count).toBe(10);
  });

  it("reads a bank's CSV export, and refuses a file in an unknown format with a clear 422", async () => {
    const sellerId = (
      await s.db.selectFrom('users').select('id').where('email', '=', 'rival@demo.test').executeTakeFirstOrThrow()
    ).id;
    const pending = await s.db
      .selectFrom('deposits')
      .select(['id', 'amount', 'currency'])
      .where('user_id', '=', sellerId)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    const amount = `${Math.floor(Number(pending.amount) / 100)}.${String(Number(pending.amount) % 100).padStart(2, '0')}`;
    const csv = `Date,Description,Amount,Currency,Transaction ID\n27/11/2026,"Payment ${topUpReference(sellerId).toLowerCase()}",${amount},${pending.currency},CSV-1\n28/11/2026,Card fee,-3.50,GBP,CSV-2\n`;
    const res = await upload('export.csv', 'text/csv', csv);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ format: 'csv', credited: 1, skipped_lines: 1 });
    expect(await depositStatus(pending.id)).toBe('approved');

    const bad = await upload('notes.csv', 'text/csv', 'hello,world\nthis,is not a statement\n');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { path: '/body/file', message: expect.stringMatching(/^This file is not a bank statement we can read/) },
    ]);
    const xml = await upload(
      'other.xml',
      'application/xml',
      '<?xml version="1.0"?><Invoice><Total>3</Total></Invoice>',
    );
    expect(xml.status).toBe(422);
    const bomb = await upload(
      'bomb.xml',
      'application/xml',
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><Document/>',
    );
    expect(bomb.status).toBe(422);
    const pdf = await upload('statement.pdf', 'application/pdf', '%PDF-1.4\n%%EOF\n');
    expect(pdf.status).toBe(415);
    // nothing of a refused import is kept
    expect(await s.db.selectFrom('bank_statements').select('id').execute()).toHaveLength(3);
  });

  it('is for the back office only', async () => {
    const seller = await s.loginAs('seller@demo.test');
    expect((await upload('s.xml', 'application/xml', camt053Of(lines.slice(0, 1)), seller)).status).toBe(403);
    expect((await s.json('GET', '/admin/bank-statement-lines', undefined, seller)).status).toBe(403);
  });
});
