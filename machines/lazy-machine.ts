/**
 * A machine built at its first use rather than as its module is evaluated: XState builds every state node and
 * transition of a machine when it is created (about 3 ms each for the login's two forms on this machine, 12 at a
 * phone's speed), and the login's machines are in the app's first script, which every page evaluates, while only
 * /login uses them.
 *
 * The object stands for the machine in every way the code and XState use one (its properties, `in`, its prototype,
 * its keys): the first of these builds it. Use it for a machine a module exports that most pages never start.
 */
export function lazyMachine<TMachine extends object>(build: () => TMachine): TMachine {
  let built: TMachine | undefined;
  const machine = () => {
    built ??= build();
    return built;
  };
  return new Proxy({} as TMachine, {
    get: (_, key) => Reflect.get(machine(), key),
    has: (_, key) => Reflect.has(machine(), key),
    set: (_, key, value) => Reflect.set(machine(), key, value),
    ownKeys: () => Reflect.ownKeys(machine()),
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(machine(), key);
      // the stand-in itself has no properties: a proxy may only report one of them as configurable
      return found ? { ...found, configurable: true } : undefined;
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(machine()),
  });
}
