/**
 * A stand-in for the typed client (`api` of openapi/client.ts) in jsdom view tests, where there is no
 * server to call: each test says what an operation answers. Install it with
 *
 *   vi.mock('<path>/openapi/client', async (real) => ({ ...(await real()), api: (await import('<path>/lib/testing/fake-api')).fakeApi.client }));
 *
 * Answers have the contract's envelope; `reply(status, body)` gives any other status.
 */
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export interface FakeCall {
  method: Method;
  path: string;
  query: Record<string, unknown> | undefined;
  body: unknown;
}
type Answer = { status: number; body: unknown };
type Handler = (call: FakeCall) => unknown | Promise<unknown>;

const REPLY = Symbol('reply');
/** An answer with a status other than 200 (the body is sent as it is). */
export const reply = (status: number, body: unknown) => ({ [REPLY]: true, status, body });

function createFakeApi() {
  const handlers = new Map<string, Handler>();
  const calls: FakeCall[] = [];
  const answer = async (call: FakeCall): Promise<Answer> => {
    const handler = handlers.get(`${call.method} ${call.path}`);
    if (!handler) return { status: 404, body: { success: false, message: `No fake for ${call.method} ${call.path}` } };
    const out = await handler(call);
    if (out && typeof out === 'object' && REPLY in out) return out as unknown as Answer;
    return { status: 200, body: { success: true, data: out } };
  };
  const request =
    (method: Method) =>
    async (path: string, init?: { params?: { query?: Record<string, unknown> }; body?: unknown }) => {
      const call = { method, path, query: init?.params?.query, body: init?.body };
      calls.push(call);
      const { status, body } = await answer(call);
      const response = new Response(JSON.stringify(body), { status });
      return status < 400 ? { data: body, response } : { error: body, response };
    };
  return {
    client: { GET: request('GET'), POST: request('POST'), PUT: request('PUT'), DELETE: request('DELETE') },
    calls,
    on(route: `${Method} /${string}`, handler: Handler) {
      handlers.set(route, handler);
    },
    reset() {
      handlers.clear();
      calls.length = 0;
    },
  };
}

export const fakeApi = createFakeApi();
