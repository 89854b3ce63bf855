import { describe, expect, it } from 'vitest';
import { nextTask } from './next-task';

describe('nextTask', () => {
  it('runs after the current task and its microtasks, in the order asked', async () => {
    const seen: string[] = [];
    nextTask(() => seen.push('first'));
    nextTask(() => seen.push('second'));
    queueMicrotask(() => seen.push('microtask'));
    seen.push('now');
    expect(seen).toEqual(['now']);
    await new Promise<void>((done) => nextTask(done));
    expect(seen).toEqual(['now', 'microtask', 'first', 'second']);
  });
});
