import type { CheckoutAPI, Types } from '@adyen/api-library';
import type { Authentication, PaymentAction, StoredCardGateway, StoredCardOutcome } from './port';
import { GatewayError } from './port';

type Result = {
  resultCode?: unknown;
  pspReference?: string;
  refusalReason?: string;
  action?: unknown;
  additionalData?: Record<string, string> | null;
};

/** What applied, as Adyen's additionalData says it after an authorisation that asked no challenge. */
export function authenticationOf(additionalData: Record<string, string> | null | undefined): Authentication {
  if (additionalData?.scaExemptionRequested) return 'exemption';
  if (additionalData?.threeDAuthenticated === 'true') return 'frictionless';
  return 'none';
}

/**
 * An answer of /payments or /payments/details as our outcome: Authorised pays; a challenge or a redirect is an
 * action for the panel (only from /payments: a second challenge after the first is a refusal); the rest refuses.
 */
export function outcomeOf(response: Result, fallbackReference: string, challenged: boolean): StoredCardOutcome {
  const reference = response.pspReference ?? fallbackReference;
  const code = String(response.resultCode);
  if (code === 'Authorised') {
    return {
      ok: true,
      reference,
      authentication: challenged ? 'challenge' : authenticationOf(response.additionalData),
    };
  }
  if (!challenged && response.action && ['ChallengeShopper', 'IdentifyShopper', 'RedirectShopper'].includes(code)) {
    const data = response.action as Record<string, unknown>;
    const action: PaymentAction = { gateway: 'adyen', type: String(data.type ?? 'threeDS2'), token: null, data };
    return {
      ok: false,
      reason: 'requires_action',
      message: 'Your bank asks you to confirm this payment.',
      reference,
      action,
    };
  }
  const refusal = response.refusalReason ?? 'Refused';
  if (challenged && /authenticat|3d/i.test(refusal)) {
    return { ok: false, reason: 'authentication_failed', message: refusal, reference };
  }
  return {
    ok: false,
    reason: /fund/i.test(refusal) ? 'insufficient_funds' : 'card_declined',
    message: refusal,
    reference,
  };
}

/**
 * The Adyen adapter for method 3 (the `@adyen/api-library` package): the buyer pays at checkout with a card it
 * stored before, by its recurring reference (`storedPaymentMethodId`). That is a customer-initiated payment:
 * shopperInteraction Ecommerce with recurringProcessingModel CardOnFile (ContAuth with UnscheduledCardOnFile is a
 * merchant-initiated one, which the buyer's bank may not authenticate). 3-D Secure 2 is asked natively (channel
 * Web, the buyer's browserInfo and origin): a challenge comes back as an action for the panel, and its answer goes
 * to /payments/details. Our reference is Adyen's idempotency key, so a transaction of ours that runs again never
 * charges twice; refunds of captured payments.
 */
export function adyenStoredCardGateway(settings: {
  apiKey: string;
  merchantAccount: string;
  live: boolean;
  liveUrlPrefix: string | null;
  /** where a shopper comes back after a redirect (3-D Secure by redirect); its origin is the challenge's */
  returnUrl: string;
}): StoredCardGateway {
  // loaded on first use (a CommonJS package, large): a server without Adyen keys never pays for it
  let checkoutApi: Promise<CheckoutAPI> | undefined;
  const api = () => {
    checkoutApi ??= import('@adyen/api-library').then((module) => {
      const lib = (module as unknown as { default?: typeof module }).default ?? module;
      const client = new lib.Client({
        apiKey: settings.apiKey,
        environment: settings.live ? lib.EnvironmentEnum.LIVE : lib.EnvironmentEnum.TEST,
        ...(settings.liveUrlPrefix ? { liveEndpointUrlPrefix: settings.liveUrlPrefix } : {}),
      });
      return new lib.CheckoutAPI(client);
    });
    return checkoutApi;
  };
  return {
    name: 'adyen',
    async charge(_db, charge): Promise<StoredCardOutcome> {
      let response: Types.checkout.PaymentResponse;
      try {
        const checkout = await api();
        response = await checkout.PaymentsApi.payments(
          adyenPaymentRequest(settings, charge) as unknown as Types.checkout.PaymentRequest,
          { idempotencyKey: charge.reference },
        );
      } catch (error) {
        throw new GatewayError('Adyen could not take the payment.', { cause: error });
      }
      return outcomeOf(response as Result, charge.reference, false);
    },
    async submitDetails(_db, answer): Promise<StoredCardOutcome> {
      let response: Types.checkout.PaymentDetailsResponse;
      try {
        const checkout = await api();
        response = await checkout.PaymentsApi.paymentsDetails(
          { details: answer.details } as Types.checkout.PaymentDetailsRequest,
          { idempotencyKey: `details-${answer.reference}` },
        );
      } catch (error) {
        throw new GatewayError('Adyen could not take the payment.', { cause: error });
      }
      return outcomeOf(response as Result, answer.reference, true);
    },
    async refund(_db, pspReference, amount, currency) {
      try {
        const checkout = await api();
        await checkout.ModificationsApi.refundCapturedPayment(
          pspReference,
          { amount: { currency, value: amount }, merchantAccount: settings.merchantAccount },
          { idempotencyKey: `refund-${pspReference}` },
        );
      } catch (error) {
        throw new GatewayError('Adyen could not refund the payment.', { cause: error });
      }
    },
  };
}

/** The /payments request of a stored card the buyer pays with at checkout (customer-initiated, 3-D Secure 2 native). */
export function adyenPaymentRequest(
  settings: { merchantAccount: string; returnUrl: string },
  charge: Parameters<StoredCardGateway['charge']>[1],
) {
  return {
    amount: { currency: charge.currency, value: charge.amount },
    merchantAccount: settings.merchantAccount,
    reference: charge.reference,
    returnUrl: settings.returnUrl,
    shopperReference: charge.shopperReference,
    shopperInteraction: 'Ecommerce',
    recurringProcessingModel: 'CardOnFile',
    paymentMethod: { type: 'scheme', storedPaymentMethodId: charge.recurringDetailReference },
    channel: 'Web',
    origin: new URL(settings.returnUrl).origin,
    authenticationData: { threeDSRequestData: { nativeThreeDS: 'preferred' } },
    ...(charge.browserInfo ? { browserInfo: charge.browserInfo } : {}),
  };
}
