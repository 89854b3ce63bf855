import type { Db } from '../../db/database';
import { submitDeposit, topUpReference } from '../wallet';

/** A line of a made-up statement and what matching should do with it. */
export interface FixtureLine {
  bankRef: string;
  amount: number;
  currency: 'GBP' | 'EUR';
  text: string;
  payer: string;
  /** The top-up it must credit, or null when a person must look (or it repeats a line). */
  depositId: number | null;
  kind: 'regular' | 'typo' | 'part' | 'over' | 'unknown' | 'duplicate';
}

const LOOSE: Array<(ref: string) => string> = [
  (r) => r,
  (r) => r.toLowerCase(),
  (r) => r.replace('-', ' '),
  (r) => r.replace('-', ''),
  (r) => `Top up ${r} thank you`,
  (r) => `${r.slice(0, 3)} ${r.slice(3, 6)} ${r.slice(6)}`,
  (r) => `PAYMENT REF:${r.toLowerCase().replace('-', '')} ACME LTD`,
  (r) => r.replace('-', '.'),
];

/** One mistyped character, each kind in turn: a digit changed, two swapped, 'SBP' misspelled, the dash gone wrong. */
const TYPOS: Array<(ref: string) => string> = [
  (r) => `${r.slice(0, 7)}${String((Number(r[7]) + 1) % 10)}${r.slice(8)}`,
  (r) => `${r.slice(0, 7)}${r[8]}${r[7]}${r.slice(9)}`,
  (r) => `SPB${r.slice(3)}`,
  (r) => `S8P${r.slice(3)}`,
];

/**
 * Makes `sellers` sellers with pending top-ups and a statement of 200 credit lines: 180 that name their top-up
 * (references written loosely) and 20 odd ones: 4 typos, 4 part-payments, 4 over-payments, 4 unknown references and
 * 4 lines the statement repeats. Amounts are all different, so that a line can match only its own top-up.
 */
export async function seedStatementFixture(db: Db, now: Date, sellers = 60): Promise<FixtureLine[]> {
  const template = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', 'seller@demo.test')
    .executeTakeFirstOrThrow();
  const { id: _id, ...rest } = template;
  const ids: number[] = [];
  for (let i = 0; i < sellers; i++) {
    const { id } = await db
      .insertInto('users')
      .values({
        ...rest,
        email: `bank${i}@e2e.test`,
        first_name: `Bank${i}`,
        user_token: `${template.user_token}-bank${i}`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(id);
  }
  let amount = 10_000;
  const topUp = async (sellerId: number, currency: 'GBP' | 'EUR') => {
    amount += 137;
    const d = await submitDeposit(
      db,
      { sellerId, submittedBy: sellerId, amount, currency, method: 'ONLINE', notes: null, proofFileId: null },
      now,
    );
    return { id: d.deposit_id, amount, ref: topUpReference(sellerId), currency };
  };
  const lines: FixtureLine[] = [];
  const seller = (i: number) => ids[i % ids.length] ?? 0;
  for (let i = 0; i < 180; i++) {
    const t = await topUp(seller(i), i % 4 === 0 ? 'EUR' : 'GBP');
    const write = LOOSE[i % LOOSE.length] ?? ((r: string) => r);
    lines.push({
      bankRef: `BR${i}`,
      amount: t.amount,
      currency: t.currency,
      text: write(t.ref),
      payer: `Bank${i % ids.length}`,
      depositId: t.id,
      kind: 'regular',
    });
  }
  for (let i = 0; i < 4; i++) {
    const t = await topUp(seller(i + 7), 'GBP');
    const write = TYPOS[i] ?? ((r: string) => r);
    lines.push({
      bankRef: `TY${i}`,
      amount: t.amount,
      currency: 'GBP',
      text: write(t.ref),
      payer: 'Typo',
      depositId: t.id,
      kind: 'typo',
    });
  }
  // part and over-payments: a seller of their own, with one pending top-up each
  for (let i = 0; i < 8; i++) {
    const own = seller(sellers - 1 - i);
    const t = await topUp(own, 'EUR');
    const paid = i < 4 ? t.amount - 5_000 : t.amount + 2_500;
    lines.push({
      bankRef: `PO${i}`,
      amount: paid,
      currency: 'EUR',
      text: `${t.ref} top up`,
      payer: 'Partial',
      depositId: null,
      kind: i < 4 ? 'part' : 'over',
    });
  }
  const unknown = ['Invoice 4471', 'Refund from supplier', `SBP${'999999'}-00`, 'SBP reference to follow'];
  for (const [i, text] of unknown.entries()) {
    lines.push({
      bankRef: `UN${i}`,
      amount: 3_300 + i,
      currency: 'GBP',
      text,
      payer: 'Stranger',
      depositId: null,
      kind: 'unknown',
    });
  }
  for (let i = 0; i < 4; i++) {
    const first = lines[i * 11];
    if (first) lines.push({ ...first, depositId: null, kind: 'duplicate' });
  }
  return lines;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const decimal = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;

/** The lines as an ISO 20022 CAMT.053.001.02 statement (with one debit entry, which is skipped). */
export function camt053Of(lines: readonly FixtureLine[], day = '2026-11-27'): string {
  const entry = (l: FixtureLine) => `
      <Ntry>
        <Amt Ccy="${l.currency}">${decimal(l.amount)}</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts>BOOK</Sts>
        <BookgDt><Dt>${day}</Dt></BookgDt>
        <AcctSvcrRef>${esc(l.bankRef)}</AcctSvcrRef>
        <NtryDtls><TxDtls>
          <RltdPties><Dbtr><Nm>${esc(l.payer)}</Nm></Dbtr></RltdPties>
          <RmtInf><Ustrd>${esc(l.text)}</Ustrd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>STMT-${day}</MsgId><CreDtTm>${day}T23:00:00Z</CreDtTm></GrpHdr>
    <Stmt>
      <Id>STMT-${day}-1</Id>
      <Acct><Id><IBAN>GB33BUKB20201555555555</IBAN></Id></Acct>${lines.map(entry).join('')}
      <Ntry>
        <Amt Ccy="GBP">12.00</Amt>
        <CdtDbtInd>DBIT</CdtDbtInd>
        <BookgDt><Dt>${day}</Dt></BookgDt>
        <AcctSvcrRef>FEE-${day}</AcctSvcrRef>
      </Ntry>
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}
