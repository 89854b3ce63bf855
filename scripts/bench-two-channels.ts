/**
 * `node --import tsx scripts/bench-two-channels.ts [buys] [holds] [tickets]`: the two-channel race of
 * server/routes/two-channel-testing.ts at the size (1,000 at once: 500 checkouts paid from the wallet and
 * 500 holds confirmed through the seller API, on 300 seats), on a fresh seeded database of the test engine
 * (TEST_ENGINE=postgres DATABASE_URL=... for PostgreSQL). Prints what each channel sold and whether any seat was
 * sold twice; exits 1 if one was.
 */

import { twoChannelRace } from '../server/routes/two-channel-testing';
import { freshServer } from '../server/test-support';

const [buys = 500, holds = 500, tickets = 300] = process.argv.slice(2).map(Number);
const s = await freshServer();
try {
  const r = await twoChannelRace(s, { tickets, buys, holds, spreadMs: 2_000 });
  console.info(
    `${buys + holds} at once on ${tickets} seats (${s.engine}): sold here ${r.soldHere}, elsewhere ${r.soldElsewhere}, ` +
      `left ${r.left}, oversold ${r.oversold}, stock conserved ${r.conserved}, ${Math.round(r.ms)} ms`,
  );
  if (r.oversold > 0 || !r.conserved) process.exitCode = 1;
} finally {
  await s.close();
}
