import type { CheckoutAPI, Types } from '@adyen/api-library';
import type { StoredCardGateway, StoredCardOutcome } from './port';
import { GatewayError } from './port';

/**
 * The Adyen adapter for method 3 (the `@adyen/api-library` package): a payment with a stored card by its
 * recurring reference (`storedPaymentMethodId`, card on file, unscheduled), with our reference as Adyen's
 * idempotency key, so a transaction of ours that runs again never charges twice; refunds of captured payments.
 */
export function adyenStoredCardGateway(settings: {
  apiKey: string;
  merchantAccount: string;
  live: boolean;
  liveUrlPrefix: string | null;
  /** where a shopper would come back after a redirect (a stored card never redirects; Adyen asks for it) */
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
          {
            amount: { currency: charge.currency, value: charge.amount },
            merchantAccount: settings.merchantAccount,
            reference: charge.reference,
            returnUrl: settings.returnUrl,
            shopperReference: charge.shopperReference,
            shopperInteraction: 'ContAuth' as Types.checkout.PaymentRequest.ShopperInteractionEnum,
            recurringProcessingModel:
              'UnscheduledCardOnFile' as Types.checkout.PaymentRequest.RecurringProcessingModelEnum,
            paymentMethod: {
              type: 'scheme' as Types.checkout.CardDetails.TypeEnum,
              storedPaymentMethodId: charge.recurringDetailReference,
            },
          },
          { idempotencyKey: charge.reference },
        );
      } catch (error) {
        throw new GatewayError('Adyen could not take the payment.', { cause: error });
      }
      const reference = response.pspReference ?? charge.reference;
      if (String(response.resultCode) === 'Authorised') return { ok: true, reference };
      const refusal = response.refusalReason ?? 'Refused';
      return {
        ok: false,
        reason: /fund/i.test(refusal) ? 'insufficient_funds' : 'card_declined',
        message: refusal,
        reference,
      };
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
