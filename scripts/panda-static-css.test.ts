import { describe, expect, it } from 'vitest';
import { css } from '../src/styled-system/css';
import { fold } from './panda-static-css';

const header = "import { css, cx } from 'styled-system/css';\n";

describe('fold: static css() calls become their class names', () => {
  it('replaces a call of literals with what the runtime css() returns for it', () => {
    const style = {
      display: 'grid',
      gap: '4',
      p: { base: '5', desktop: '8' },
      _hover: { bg: 'bg.subtle' },
      gridTemplateColumns: `repeat(auto-fill, minmax(min(100%, 22rem), 1fr))`,
      zIndex: 50,
      mt: -1,
      srOnly: true,
    };
    const code = `${header}export const a = css(${JSON.stringify(style)});\nexport const b = css({ fontSize: 'sm' }, { color: 'fg.muted' });\n`;
    const folded = fold(code, css);
    expect(folded).toBe(
      `${header}export const a = ${JSON.stringify(css(style))};\nexport const b = ${JSON.stringify(
        css({ fontSize: 'sm' }, { color: 'fg.muted' }),
      )};\n`,
    );
    expect(css(style)).toContain('d_grid');
  });

  it('keeps calls it cannot compute: variables, spreads, conditions, computed keys, no argument', () => {
    const calls = [
      'css({ width: size })',
      'css({ ...base, color: "red" })',
      'css(open ? { display: "block" } : { display: "none" })',
      'css({ [key]: "1" })',
      // a template string with an expression
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the code under test holds one
      'css({ color: `${tone}.fg` })',
      'css()',
      'css(base)',
      'css({ display: "grid" }, extra)',
    ];
    for (const call of calls) {
      const code = `${header}export const x = ${call};\n`;
      expect(fold(code, css)).toBe(code);
    }
  });

  it('follows the import: a renamed css is folded, another module’s css is not', () => {
    const renamed = "import { css as style } from 'styled-system/css';\nexport const a = style({ display: 'flex' });\n";
    expect(fold(renamed, css)).toBe(
      `import { css as style } from 'styled-system/css';\nexport const a = ${JSON.stringify(css({ display: 'flex' }))};\n`,
    );
    const other = "import { css } from './my-css';\nexport const a = css({ display: 'flex' });\n";
    expect(fold(other, css)).toBe(other);
    const none = "export const a = css({ display: 'flex' });\n";
    expect(fold(none, css)).toBe(none);
  });

  it('folds calls nested in JSX output and keeps the lines where they were', () => {
    const code = `${header}// Café — ✓ (text before the call that is not ASCII)
export function Card(props) {
  return jsx('section', {
    className: cx(css({
      bg: 'bg',
      borderRadius: 'lg',
    }), props.extra),
    children: 'Le café',
  });
}
`;
    const folded = fold(code, css);
    expect(folded).not.toMatch(/css\(/);
    expect(folded).toContain(`className: cx(${JSON.stringify(css({ bg: 'bg', borderRadius: 'lg' }))}`);
    expect(folded.split('\n')).toHaveLength(code.split('\n').length);
    expect(folded.split('\n')[8]).toBe("    children: 'Le café',");
  });
});
