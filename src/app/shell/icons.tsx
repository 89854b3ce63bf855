import type { ReactNode } from 'react';

/** The shell's icons: 20 px line drawings that take the text colour. Decorative: labels carry the meaning. */
function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      // a long label beside it wraps or is cut; the icon keeps its 20 px
      style={{ flexShrink: 0 }}
    >
      {children}
    </svg>
  );
}

export const icons = {
  collapse: (
    <Icon>
      <path d="M15 6l-6 6 6 6" />
      <path d="M20 4v16" />
    </Icon>
  ),
  expand: (
    <Icon>
      <path d="M9 6l6 6-6 6" />
      <path d="M4 4v16" />
    </Icon>
  ),
  user: (
    <Icon>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c1.5-4 4.5-6 8-6s6.5 2 8 6" />
    </Icon>
  ),
  dashboard: (
    <Icon>
      <rect x="3" y="3" width="7" height="9" rx="1.5" />
      <rect x="14" y="3" width="7" height="5" rx="1.5" />
      <rect x="14" y="12" width="7" height="9" rx="1.5" />
      <rect x="3" y="16" width="7" height="5" rx="1.5" />
    </Icon>
  ),
  bell: (
    <Icon>
      <path d="M6 16V11a6 6 0 1 1 12 0v5l2 2H4z" />
      <path d="M10 21h4" />
    </Icon>
  ),
  add: (
    <Icon>
      <rect x="3" y="3" width="18" height="18" rx="3" />
      <path d="M12 8v8M8 12h8" />
    </Icon>
  ),
  list: (
    <Icon>
      <path d="M8 6h13M8 12h13M8 18h13" />
      <circle cx="4" cy="6" r="1" />
      <circle cx="4" cy="12" r="1" />
      <circle cx="4" cy="18" r="1" />
    </Icon>
  ),
  upload: (
    <Icon>
      <path d="M12 16V4M7 9l5-5 5 5" />
      <path d="M4 16v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />
    </Icon>
  ),
  sales: (
    <Icon>
      <path d="M3 12l9-9h8v8l-9 9z" />
      <circle cx="15.5" cy="8.5" r="1.5" />
    </Icon>
  ),
  reports: (
    <Icon>
      <path d="M4 20V10M10 20V4M16 20v-7M22 20H2" />
    </Icon>
  ),
  wallet: (
    <Icon>
      <rect x="2" y="6" width="20" height="14" rx="2" />
      <path d="M2 10h20M16 15h2" />
    </Icon>
  ),
  search: (
    <Icon>
      <circle cx="11" cy="11" r="7" />
      <path d="M21 21l-4.5-4.5" />
    </Icon>
  ),
  logout: (
    <Icon>
      <path d="M15 4h4a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1h-4" />
      <path d="M10 17l-5-5 5-5M5 12h11" />
    </Icon>
  ),
  bot: (
    <Icon>
      <rect x="4" y="8" width="16" height="12" rx="3" />
      <path d="M12 8V4M9 14h.01M15 14h.01M2 13v3M22 13v3" />
    </Icon>
  ),
  menu: (
    <Icon>
      <path d="M3 6h18M3 12h18M3 18h18" />
    </Icon>
  ),
  close: (
    <Icon>
      <path d="M6 6l12 12M18 6L6 18" />
    </Icon>
  ),
  chevronDown: (
    <Icon>
      <path d="M6 9l6 6 6-6" />
    </Icon>
  ),
} as const;
