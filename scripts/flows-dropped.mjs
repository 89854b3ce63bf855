// `npm run flows:dropped`: for a review, the user events that a statechart's loading states drop while a
// sibling state takes them, read from the exported charts (public/flows/*.machine.json, `npm run flows:export`).
// A control that stays usable in such a state loses its click: 'Request an event' on Add Inventory did, and
// Inventory's Columns did. Each line is a question for the page: is that control disabled or hidden meanwhile?
// Retries (only offered after a failure) and the machines' own events (xstate.*, after, done, error) are left out.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const dir = new URL('../public/flows/', import.meta.url);
if (!existsSync(new URL('index.json', dir))) {
  console.error('public/flows is not built: run npm run flows:export (npm run build runs it too)');
  process.exit(2);
}
const asked = (type) => !/^xstate\.|^after|done|error|retried$|^retry$/.test(type);
let lines = 0;
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.machine.json'))
  .sort()) {
  const chart = JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
  const walk = (node, path) => {
    const states = node.states ?? {};
    const eventsOf = (name) => Object.keys(states[name].on ?? {}).filter(asked);
    for (const name of Object.keys(states)) {
      if (/^(loading|fetching|starting)/i.test(name)) {
        const own = new Set(eventsOf(name));
        const dropped = new Set();
        for (const other of Object.keys(states))
          if (other !== name) for (const type of eventsOf(other)) if (!own.has(type)) dropped.add(type);
        // scrolling a list that is still loading is meant to do nothing
        for (const type of ['list.scrolled', 'list.moreRequested']) dropped.delete(type);
        if (dropped.size > 0) {
          console.info(`${path}.${name} drops ${[...dropped].join(', ')}`);
          lines += 1;
        }
      }
      walk(states[name], `${path}.${name}`);
    }
  };
  walk(chart, chart.id);
}
console.info(`${lines} loading states drop events that a sibling takes: check each one's control on its page`);
