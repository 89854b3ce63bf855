/**
 * What a machine says to the user: a toast. Machines `emit` it; the app's one notify bridge
 * (src/app/notify-bridge.tsx, `useNotify`) shows it. The level picks the toast's colour.
 */
export interface NotifyEvent {
  type: 'notify';
  level: 'error' | 'success' | 'info';
  message: string;
}

export const notifyError = (message: string): NotifyEvent => ({ type: 'notify', level: 'error', message });
