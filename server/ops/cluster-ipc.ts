import cluster, { type Worker } from 'node:cluster';

/**
 * Questions one worker puts to all (readiness, metrics, the System page's figures): the asking worker sends
 * `ask` to the primary, the primary sends `query` to every connected worker (the asker included), collects their
 * `reply` for up to a deadline and sends the lot back as `answers`. A worker that does not answer in time is
 * listed with `value: null`. The primary never reads a value: what a kind means is the workers' business.
 */
export type AskKind = 'readiness' | 'metrics' | 'system';

export interface WorkerAnswer {
  worker: number;
  value: unknown;
}

type Message =
  | { sb: 'ask'; id: number; kind: AskKind }
  | { sb: 'query'; qid: number; kind: AskKind }
  | { sb: 'reply'; qid: number; value: unknown }
  | { sb: 'answers'; id: number; answers: WorkerAnswer[] }
  | { sb: 'serving'; port: number }
  | { sb: 'shutdown' };

const isMessage = (m: unknown): m is Message => typeof m === 'object' && m !== null && 'sb' in m;

/** How long the primary waits for the workers' replies (readiness gives the database 2 s). */
export const ASK_DEADLINE_MS = 2_500;

// ---- in a worker ----

let asked = 0;
const waiting = new Map<number, (answers: WorkerAnswer[]) => void>();
const answerers = new Map<AskKind, () => Promise<unknown>>();
let listening = false;

function listen() {
  if (listening) return;
  listening = true;
  process.on('message', (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.sb === 'answers') {
      waiting.get(message.id)?.(message.answers);
      waiting.delete(message.id);
    } else if (message.sb === 'query') {
      const answer = answerers.get(message.kind);
      const reply = (value: unknown) => process.send?.({ sb: 'reply', qid: message.qid, value } satisfies Message);
      if (!answer) reply(null);
      else answer().then(reply, () => reply(null));
    }
  });
}

/** In a worker: what this worker says when any worker asks `kind`. */
export function answerAsked(kind: AskKind, answer: () => Promise<unknown>) {
  listen();
  answerers.set(kind, answer);
}

/** In a worker: every worker's answer to `kind` (this one's included), through the primary. */
export function askWorkers(kind: AskKind): Promise<WorkerAnswer[]> {
  listen();
  const id = ++asked;
  return new Promise((resolve) => {
    // the primary answers by its deadline; this one only guards against a primary gone
    const timer = setTimeout(() => {
      waiting.delete(id);
      resolve([]);
    }, ASK_DEADLINE_MS * 2);
    waiting.set(id, (answers) => {
      clearTimeout(timer);
      resolve(answers);
    });
    process.send?.({ sb: 'ask', id, kind } satisfies Message);
  });
}

/** In a worker: tells the primary it serves (the database is ready). */
export function tellServing(port: number) {
  process.send?.({ sb: 'serving', port } satisfies Message);
}

/** In a worker: runs `stop` when the primary says the cluster is shutting down. */
export function onShutdown(stop: () => void) {
  process.on('message', (message: unknown) => {
    if (isMessage(message) && message.sb === 'shutdown') stop();
  });
}

// ---- in the primary ----

export interface PrimaryEvents {
  serving(worker: Worker, port: number): void;
}

/**
 * In the primary: relays the workers' questions to the workers that serve (a worker starting up takes no
 * connections yet, so it is not asked).
 */
export function relayQuestions(events: PrimaryEvents) {
  let queries = 0;
  const open = new Map<number, { pending: Set<number>; answers: WorkerAnswer[]; finish: () => void }>();
  const serving = new Set<number>();
  cluster.on('exit', (worker) => serving.delete(worker.id));
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.sb === 'serving') {
      serving.add(worker.id);
      events.serving(worker, message.port);
    } else if (message.sb === 'reply') {
      const query = open.get(message.qid);
      if (!query || !query.pending.delete(worker.id)) return;
      query.answers.push({ worker: worker.id, value: message.value });
      if (query.pending.size === 0) query.finish();
    } else if (message.sb === 'ask') {
      const qid = ++queries;
      const asker = worker;
      const workers = Object.values(cluster.workers ?? {}).filter(
        (w): w is Worker => !!w && w.isConnected() && serving.has(w.id),
      );
      const query = {
        pending: new Set(workers.map((w) => w.id)),
        answers: [] as WorkerAnswer[],
        finish: () => {
          clearTimeout(timer);
          open.delete(qid);
          for (const id of query.pending) query.answers.push({ worker: id, value: null });
          query.answers.sort((a, b) => a.worker - b.worker);
          if (asker.isConnected())
            asker.send({ sb: 'answers', id: message.id, answers: query.answers } satisfies Message);
        },
      };
      const timer = setTimeout(() => query.finish(), ASK_DEADLINE_MS);
      open.set(qid, query);
      for (const w of workers) w.send({ sb: 'query', qid, kind: message.kind } satisfies Message);
      if (workers.length === 0) query.finish();
    }
  });
}

/** In the primary: tells every worker to shut down. */
export function shutDownWorkers() {
  for (const w of Object.values(cluster.workers ?? {}))
    if (w?.isConnected()) w.send({ sb: 'shutdown' } satisfies Message);
}
