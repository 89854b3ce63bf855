/**
 * A ticket's block as a sentence names it. The stadiums' own names already say it ('Block 82'): those are shown as
 * they are; a seller's own ('B1', '43') gets the word before it. The word is capitalised where it starts a part
 * of a line ('Away Section · Block 101'), not where it follows a comma ('Away Section, block B1').
 */
export function blockText(block: string, capital = false): string {
  const name = block.trim();
  if (/^block\b/i.test(name)) return name;
  return `${capital ? 'Block' : 'block'} ${name}`;
}
