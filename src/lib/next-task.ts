/**
 * Runs `run` in a task of its own, after the current one, as soon as the browser is free: a MessageChannel
 * message, as React's scheduler does, rather than `setTimeout(0)`, which browsers may hold back by 4 ms or more
 * and run after other timers.
 */
export function nextTask(run: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    run();
  };
  channel.port2.postMessage(null);
}
