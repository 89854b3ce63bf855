/**
 * The `stripe` gateway in the browser tests, without Stripe's network (e2e/purchase-stripe.spec.ts).
 *
 * e2e/server.ts serves a second app on E2E_PORT + 1: the same database and build as the sandbox server on
 * E2E_PORT, but its card gateway is the `stripe` adapter, whose client talks to a local fake of the
 * PaymentIntents API (server/testing/stripe-fake.ts) on E2E_PORT + 2 through STRIPE_API_BASE. Cookies do not
 * depend on the port, so the stored logins of e2e/auth.setup.ts hold on both.
 *
 * In the page, Stripe.js (https://js.stripe.com/...) is this file's stand-in, served by `page.route`; like
 * Stripe.js it calls https://api.stripe.com/v1 (the CSP's connect-src allows it) with the publishable key in
 * the form body, and the spec routes those calls to the fake. The server reads the intent back from the fake,
 * so it sees `succeeded` only when the stand-in really confirmed the card there.
 */
const base = Number(process.env.E2E_PORT ?? 4178);

export const STRIPE_E2E = {
  /** the app whose card gateway is `stripe` */
  appPort: base + 1,
  /** the fake PaymentIntents API (STRIPE_API_BASE of that app) */
  apiPort: base + 2,
  secretKey: 'sk_test_e2e_fake',
  publishableKeyGbp: 'pk_test_e2e_gbp',
  publishableKeyOther: 'pk_test_e2e_other',
} as const;

export const stripeAppUrl = `http://127.0.0.1:${STRIPE_E2E.appPort}`;
export const stripeApiUrl = `http://127.0.0.1:${STRIPE_E2E.apiPort}`;

/**
 * Stripe.js's stand-in: window.Stripe(key) with elements().create('card') (a card number, expiry and CVC typed
 * into plain inputs, since the real Element is an iframe of Stripe's) and confirmCardPayment, which does what
 * Stripe.js does: the card to a PaymentMethod (POST /v1/payment_methods), then the intent confirmed with it
 * (POST /v1/payment_intents/:id/confirm with the client_secret). Nothing here decides the outcome: the fake does.
 */
export const STRIPE_JS_STANDIN = `(() => {
  const api = 'https://api.stripe.com/v1';
  function Stripe(key) {
    const post = async (path, params) => {
      const res = await fetch(api + path, { method: 'POST', body: new URLSearchParams({ ...params, key }) });
      return { ok: res.ok, body: await res.json() };
    };
    const makeCard = () => {
      const handlers = {};
      let inputs = null;
      let ready = false;
      const emit = (name, arg) => (handlers[name] || []).forEach((fn) => fn(arg));
      const value = (i) => (inputs ? inputs[i].value.trim() : '');
      const element = {
        mount(target) {
          const node = typeof target === 'string' ? document.querySelector(target) : target;
          inputs = ['Card number', 'MM / YY', 'CVC'].map((label) => {
            const input = document.createElement('input');
            input.setAttribute('aria-label', label);
            input.addEventListener('input', () => {
              const complete = value(0).replace(/\\D/g, '').length >= 12 && /^\\d\\d\\s*\\/\\s*\\d\\d$/.test(value(1)) && /^\\d{3,4}$/.test(value(2));
              emit('change', { elementType: 'card', empty: false, complete, error: undefined });
            });
            node.appendChild(input);
            return input;
          });
          setTimeout(() => { ready = true; emit('ready', element); }, 0);
        },
        on(name, fn) {
          (handlers[name] = handlers[name] || []).push(fn);
          if (name === 'ready' && ready) setTimeout(() => fn(element), 0);
          return element;
        },
        off(name, fn) {
          handlers[name] = (handlers[name] || []).filter((h) => h !== fn);
          return element;
        },
        update() {},
        focus() {},
        blur() {},
        clear() { if (inputs) inputs.forEach((i) => { i.value = ''; }); },
        unmount() { if (inputs) inputs.forEach((i) => i.remove()); inputs = null; },
        destroy() { element.unmount(); },
        mounted: () => inputs !== null,
        card() {
          const [month = '', year = ''] = value(1).split('/').map((p) => p.trim());
          return { number: value(0).replace(/\\D/g, ''), exp_month: month, exp_year: '20' + year, cvc: value(2) };
        },
      };
      return element;
    };
    let card = null;
    return {
      elements: () => ({
        create: (type) => {
          if (type !== 'card') throw new Error('the stand-in has only the card Element');
          card = makeCard();
          return card;
        },
        getElement: () => card,
        update() {},
      }),
      async confirmCardPayment(clientSecret, data) {
        const element = data.payment_method.card;
        // as Stripe.js: the Element must still be mounted when the payment is confirmed
        if (!element || !element.mounted()) {
          throw new Error('IntegrationError: We could not retrieve data from the specified Element. Please make sure the Element you are attempting to use is still mounted.');
        }
        const c = element.card();
        const pm = await post('/payment_methods', {
          type: 'card', 'card[number]': c.number, 'card[exp_month]': c.exp_month, 'card[exp_year]': c.exp_year, 'card[cvc]': c.cvc,
        });
        if (!pm.ok) return { error: pm.body.error };
        const id = clientSecret.split('_secret_')[0];
        const done = await post('/payment_intents/' + id + '/confirm', { client_secret: clientSecret, payment_method: pm.body.id });
        return done.ok ? { paymentIntent: done.body } : { error: done.body.error };
      },
      createToken() {},
      createPaymentMethod() {},
      registerAppInfo() {},
      _registerWrapper() {},
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();`;
