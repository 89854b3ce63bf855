import { type PaymentSettings, readPaymentSettings } from '../config';
import { adyenStoredCardGateway } from './adyen';
import type { Payments } from './port';
import { sandboxCardGateway, sandboxStoredCardGateway } from './sandbox';
import { stripeCardGateway, stripeWebhooks } from './stripe';

export * from './port';

/** The gateways the settings choose: Stripe and Adyen when their keys are set, the sandbox otherwise. */
export function paymentsFrom(settings: PaymentSettings = readPaymentSettings()): Payments {
  return {
    card: settings.stripe ? stripeCardGateway(settings.stripe) : sandboxCardGateway,
    storedCard: settings.adyen ? adyenStoredCardGateway(settings.adyen) : sandboxStoredCardGateway,
    webhooks: stripeWebhooks(settings.stripeWebhookSecret),
  };
}
