import { api, type DataOf, unwrap } from '../../openapi/client';
import { adminAuditActionValues } from '../../openapi/schema';
import { createListMachine, fromPageMeta } from '../list.machine';

export type AdminAuditEntry = DataOf<'/admin/audit-log', 'get'>['entries'][number];
export type AdminAuditAction = AdminAuditEntry['action'];
export const AUDIT_ACTIONS: readonly AdminAuditAction[] = adminAuditActionValues;

/** The log's filters: an action, an operator's email, and a span of days (UTC, inclusive); empty means any. */
export interface AuditFilters {
  action: AdminAuditAction | null;
  operator: string;
  date_from: string;
  date_to: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = { action: null, operator: '', date_from: '', date_to: '' };

/**
 * The back office's audit log (/admin/audit-log): every action an operator took, newest first, 50 a page,
 * filtered by action, operator and day.
 */
export const auditLogMachine = createListMachine<AdminAuditEntry, AuditFilters>({
  id: 'adminAuditLog',
  fetchPage: async ({ page, filters }, signal) => {
    const data = unwrap(
      await api.GET('/admin/audit-log', {
        params: {
          query: {
            page,
            action: filters.action ?? undefined,
            operator: filters.operator.trim() || undefined,
            date_from: filters.date_from || undefined,
            date_to: filters.date_to || undefined,
          },
        },
        signal,
      }),
      'Failed to fetch data',
    );
    return fromPageMeta(data.entries, data.meta);
  },
  keyOf: (e) => e.id,
  errorMessage: () => 'Failed to fetch data',
  toastsErrors: () => true,
});
