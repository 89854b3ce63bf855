import { describe, expect, it } from 'vitest';
import { loadContract } from './contract';
import { noUser } from './router';

describe("an unsecured operation's user", () => {
  const contract = loadContract();
  const login = contract.operations.find((op) => op.operationId === 'login');

  it('is an unsecured operation of the contract (login)', () => {
    expect(login?.secured).toBe(false);
  });

  it('says, on any read, that the operation has no security', () => {
    if (!login) throw new Error('no login operation');
    const user = noUser(login);
    expect(() => user.id).toThrow('login has no security: there is no user');
    expect(() => user.permissions).toThrow(/has no security/);
  });
});
