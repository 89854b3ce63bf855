import { useEffect } from 'react';
import { Toaster, toast } from 'sonner';
import { attachToasts } from './notify-bridge';

/** Toasts: top-right, 5 seconds (spec section 2). */
export default function Toasts() {
  // the message is the toast's id: the same failure from several widgets shows once
  useEffect(() => attachToasts(({ level, message }) => toast[level](message, { id: message })), []);
  return <Toaster position="top-right" duration={5000} closeButton richColors />;
}
