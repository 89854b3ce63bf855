/**
 * bench:purchase's stub: the three purchase calls' paths answered with constant answers of the same shape,
 * after reading the request. What it serves a second is the load generator's own ceiling on this machine, so
 * that the bench shows its client is not what limits the servers it measures. PORT; says 'ready' to its parent.
 */
import { createServer } from 'node:http';

const HOLD = new Date(Date.now() + 15 * 60_000).toISOString();
const breakdown = {
  currency: 'GBP',
  ticket_quantity: 1,
  ticket_price: 5000,
  sub_total: 5000,
  service_fee: 500,
  shipping_fee: 0,
  tax: 100,
  payment_method: 1,
  payment_fee: 0,
  total_with_payment_fee: 5600,
  grand_total: 5600,
};
const booking = {
  booking_id: 1,
  booking_no: 'BK00000001',
  cart_id: 1,
  status: 'pending',
  match_id: 1,
  sell_ticket_id: 1,
  quantity: 1,
  currency: 'GBP',
  payment_method: 1,
  price_breakdown: breakdown,
  expires_at: HOLD,
  hold_seconds_left: 900,
};
const texts = {
  cart: JSON.stringify({
    success: true,
    data: {
      cart_id: 1,
      status: 'held',
      message: 'Tickets held for 15 minutes.',
      sell_ticket_id: 1,
      match_id: 1,
      quantity: 1,
      currency: 'GBP',
      payment_method: 1,
      expires_at: HOLD,
      hold_seconds_left: 900,
      price_breakdown: breakdown,
    },
  }),
  booking: JSON.stringify({ success: true, data: booking }),
  paid: JSON.stringify({
    success: true,
    data: {
      result: {
        status: 1,
        booking_status: 'Success',
        message: 'Booking Confirmed Successfully',
        reason: null,
        refunded: false,
        booking_id: 1,
        booking_no: 'BK00000001',
      },
      booking: { ...booking, status: 'confirmed' },
    },
  }),
  health: '{"success":true,"message":"ok"}',
};

const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
  req.resume();
  req.on('end', () => {
    const url = req.url ?? '';
    const text = url.includes('/add-to-cart')
      ? texts.cart
      : url.includes('/inventory/buy/')
        ? texts.booking
        : url.includes('/confirmation')
          ? texts.paid
          : texts.health;
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
    });
    res.end(text);
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => process.send?.('ready'));
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
