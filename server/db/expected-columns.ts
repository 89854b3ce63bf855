import type { Selectable } from 'kysely';

type Columns<T> = keyof Selectable<T> & string;
type Nullable<T> = { [K in Columns<T>]: null extends Selectable<T>[K] ? K : never }[Columns<T>];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * The columns a test expects of a table of server/db/schema.ts, checked by the compiler: `table<T>()(columns,
 * nullable)` does not compile when `columns` misses a column of T or `nullable` misses one whose type takes null.
 */
export function table<T>() {
  return <const C extends readonly Columns<T>[], const N extends readonly Nullable<T>[]>(
    columns: C & (Same<C[number], Columns<T>> extends true ? unknown : { missing: Exclude<Columns<T>, C[number]> }),
    nullable: N & (Same<N[number], Nullable<T>> extends true ? unknown : { missing: Exclude<Nullable<T>, N[number]> }),
  ) => ({ columns: [...columns].sort(), nullable: [...nullable].sort() });
}
