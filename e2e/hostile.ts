// The e2e run's own data (written by e2e/server.ts before the server starts): long unbroken strings where
// a layout has to cope with them, and a team member held by its seller's KYC. Kept apart from the server code so that the specs can read them.

/** A seller with every permission, KYC approved, whose own data is all long strings. */
export const HOSTILE_ACCOUNT = {
  email: 'longname@e2e.test',
  // one word, no hyphen or space to break at: the header greets it, the menu shows it
  firstName: `Bartholomew${'x'.repeat(69)}`,
  lastName: 'Featherstonehaugh-Cholmondeley-Marjoribanks',
} as const;

/** One 300-character word in a notification's description. */
export const LONG_WORD = `Unbreakable${'W'.repeat(289)}`;

/** An event whose name is long, with a long unbroken word in it. */
export const LONG_EVENT = `Borussia Mönchengladbach Reserves Under-23 Invitational ${'Q'.repeat(120)} vs Wolverhampton Wanderers Women`;

/** A team member (every permission, its own KYC approved) of newseller@demo.test, whose KYC is not submitted. */
export const HELD_MEMBER_EMAIL = 'heldmember@e2e.test';
