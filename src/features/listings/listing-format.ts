import type { ListingStatus, SplitType } from '../../../machines/listings-api';
import { formatDate } from '../../lib/format-date';
import { formatMoney } from '../../lib/money';
import type { Option } from '../../ui/dropdown';
import { TICKET_TYPES } from '../../ui/ticket-type-icon';

/** The split options as a seller reads them (the contract's SplitType values). */
export const SPLIT_LABELS: Readonly<Record<SplitType, string>> = {
  any: 'Any quantity',
  pairs: 'Pairs only',
  avoid_single: 'No single ticket left',
  all_together: 'Sell all together',
};
export const SPLIT_OPTIONS: Option<SplitType>[] = (Object.keys(SPLIT_LABELS) as SplitType[]).map((value) => ({
  value,
  label: SPLIT_LABELS[value],
}));

export const STATUS_LABELS: Readonly<Record<ListingStatus, string>> = {
  published: 'Published',
  unpublished: 'Unpublished',
};
export const STATUS_OPTIONS: Option<ListingStatus>[] = (Object.keys(STATUS_LABELS) as ListingStatus[]).map((value) => ({
  value,
  label: STATUS_LABELS[value],
}));

export const TICKET_TYPE_OPTIONS: Option<number>[] = Object.entries(TICKET_TYPES).map(([id, label]) => ({
  value: Number(id),
  label,
}));

export const money = (minor: number, currency: string) => formatMoney({ minor, currency });
export const matchWhen = (date: string, time?: string | null) => `${formatDate(date)}${time ? `, ${time}` : ''}`;
