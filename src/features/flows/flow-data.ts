import type { FlowIndexEntry, FlowView, StateJson } from '../../../machines/testing/flows';
import type { FlowStories } from '../../../machines/testing/stories';

export type { FlowIndexEntry, FlowStories, FlowView, StateJson };

// The exported flows (`npm run flows:export` writes them into public/flows, and the builds run it; they are not
// in git): static files the app serves, so the viewer works with no network beyond the portal itself.

const BASE = '/flows';

async function getJson<T>(file: string): Promise<T> {
  const res = await fetch(`${BASE}/${file}`, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${file}: ${res.status}`);
  return (await res.json()) as T;
}

export const loadIndex = () => getJson<{ machines: FlowIndexEntry[] }>('index.json').then((r) => r.machines);

export interface FlowFiles {
  entry: FlowIndexEntry;
  machine: StateJson;
  view: FlowView;
  /** null when no model test writes stories for this machine */
  stories: FlowStories | null;
}

export async function loadFlow(id: string): Promise<FlowFiles | null> {
  const index = await loadIndex();
  const entry = index.find((m) => m.id === id);
  if (!entry) return null;
  const [machine, view, stories] = await Promise.all([
    getJson<StateJson>(`${id}.machine.json`),
    getJson<FlowView>(`${id}.view.json`),
    entry.stories ? getJson<FlowStories>(`${id}.stories.json`) : null,
  ]);
  return { entry, machine, view, stories };
}

/** The Stately-importable file of a machine, for the download link. */
export const machineFileHref = (id: string) => `${BASE}/${id}.machine.json`;
