import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { controlProblems, viewFiles } from './one-control.mjs';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const page = (text) => [{ path: 'src/features/reports/some-page.tsx', text }];

describe('one of each control', () => {
  it('finds no native select, datalist, own combobox or second file input in the app', () => {
    const files = viewFiles(root);
    expect(files.length).toBeGreaterThan(100);
    expect(controlProblems(files)).toEqual([]);
  });

  it('refuses a native select in a feature, and names the kit dropdown instead', () => {
    expect(controlProblems(page('      <select\n        value={x}>'))).toEqual([
      expect.stringMatching(/^src\/features\/reports\/some-page\.tsx:1: a native <select>; use the kit's Dropdown/),
    ]);
    expect(controlProblems(page('<select value={x}>'))).toHaveLength(1);
    expect(controlProblems(page('<select'))).toHaveLength(1);
    // words that merely start so are not selects
    expect(controlProblems(page('const selected = <selection-bar />;'))).toEqual([]);
  });

  it('refuses a second file picker: a file input, in JSX or made in code', () => {
    expect(controlProblems(page('<input type="file" multiple />'))).toEqual([
      expect.stringContaining("a file input of its own; use the kit's FileField"),
    ]);
    expect(controlProblems(page("<input type={'file'} />"))).toHaveLength(1);
    expect(controlProblems(page("Object.assign(document.createElement('input'), { type: 'file' })"))).toHaveLength(1);
  });

  it('refuses a datalist and a hand-made combobox or listbox', () => {
    expect(controlProblems(page('<datalist id={id}>'))).toHaveLength(1);
    expect(controlProblems(page('<div role="listbox">'))).toHaveLength(1);
    expect(controlProblems(page('<input role="combobox" />'))).toHaveLength(1);
  });

  it('lets the kit hold its own control, and ignores tests', () => {
    expect(controlProblems([{ path: 'src/ui/file-field.tsx', text: '<input type="file" />' }])).toEqual([]);
    expect(controlProblems([{ path: 'src/ui/dropdown.tsx', text: '<div role="listbox">' }])).toEqual([]);
    expect(controlProblems([{ path: 'src/features/x/page.test.tsx', text: '<select>' }])).toEqual([]);
    // the kit's file field is not a licence for a second picker elsewhere in the kit
    expect(controlProblems([{ path: 'src/ui/other.tsx', text: '<input type="file" />' }])).toHaveLength(1);
  });
});
