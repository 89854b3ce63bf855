/** 'new_order_received' → 'New Order Received' (underscores to spaces, each word capitalised). */
export function humanizeName(name: string): string {
  return name
    .split('_')
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** The activity badge's tone: logged_in green, logged_out red, anything else grey. */
export function activityTone(type: string): 'success' | 'danger' | 'neutral' {
  if (type === 'logged_in') return 'success';
  if (type === 'logged_out') return 'danger';
  return 'neutral';
}
