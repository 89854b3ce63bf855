import { describe, expect, it } from 'vitest';
import { fetchInOwnTask } from './client';

describe('fetchInOwnTask', () => {
  it('sends each call in a task of its own, in the order they were asked for, and answers what was sent', async () => {
    const log: string[] = [];
    const send = async (request: Request) => {
      const path = new URL(request.url).pathname;
      log.push(`send ${path}`);
      // runs before the next task: before the next call is sent when each has a task of its own
      queueMicrotask(() => log.push(`after ${path}`));
      return new Response(path);
    };
    const inOwnTask = fetchInOwnTask(send);
    const answers = ['/a', '/b', '/c'].map((path) => inOwnTask(new Request(`http://portal.test${path}`)));
    // nothing is sent in the task that asked
    expect(log).toEqual([]);
    await Promise.resolve();
    expect(log).toEqual([]);
    expect(await Promise.all(answers.map(async (a) => (await a).text()))).toEqual(['/a', '/b', '/c']);
    expect(log).toEqual(['send /a', 'after /a', 'send /b', 'after /b', 'send /c', 'after /c']);
  });

  it('passes a failure of the call on', async () => {
    const inOwnTask = fetchInOwnTask(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(inOwnTask(new Request('http://portal.test/a'))).rejects.toThrow('Failed to fetch');
  });
});
