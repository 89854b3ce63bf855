import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { reportHistoryMachine } from '../../../machines/report-history.machine';

type ReportRef = ActorRefFrom<typeof reportHistoryMachine>;

/** The report history page's machine, for the page's parts. */
export const ReportContext = createContext<ReportRef | null>(null);
export function useReport(): ReportRef {
  const report = useContext(ReportContext);
  if (!report) throw new Error('useReport needs the report history page');
  return report;
}
