import { describe, expect, it } from 'vitest';
import { keepTypedBeforeStart, takeTypedBeforeStart } from './typed-before-start';

function prerendered() {
  const root = document.createElement('div');
  root.innerHTML = '<form><input name="email"><input name="password" type="password"><a href="/x">x</a></form>';
  document.body.append(root);
  const field = (name: string) => root.querySelector<HTMLInputElement>(`input[name="${name}"]`) as HTMLInputElement;
  return { root, email: field('email'), password: field('password'), link: root.querySelector('a') as HTMLElement };
}

describe('what was typed into the prerendered login form', () => {
  it('is read when the app takes it, up to the swap, with the focused field, once', () => {
    const { root, email, password } = prerendered();
    keepTypedBeforeStart(root);
    email.value = 'sam@demo.test';
    password.focus();
    // typed after the app's script started, before its form replaced this one
    password.value = 'secret';
    root.replaceChildren();
    expect(takeTypedBeforeStart()).toEqual({ email: 'sam@demo.test', password: 'secret', focused: 'password' });
    expect(takeTypedBeforeStart()).toBeNull();
    root.remove();
  });

  it('gives no focus back when a field was left for another place, and nothing without the form', () => {
    const { root, email, link } = prerendered();
    keepTypedBeforeStart(root);
    email.focus();
    link.tabIndex = 0;
    link.focus();
    root.replaceChildren();
    expect(takeTypedBeforeStart()).toEqual({ email: '', password: '', focused: null });
    root.remove();
    const empty = document.createElement('div');
    keepTypedBeforeStart(empty);
    expect(takeTypedBeforeStart()).toBeNull();
  });
});
