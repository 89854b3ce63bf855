import { useRef, useState } from 'react';
import { css } from 'styled-system/css';
import type { DateRangeValue } from '../../../machines/date-range.machine';
import { createUploader } from '../../../openapi/upload';
import { DEPOSIT_PROOF_RULES } from '../../lib/file-rules';
import { formatDate } from '../../lib/format-date';
import { formatMinorUnits } from '../../lib/money';
import { Button } from '../../ui/button';
import { CopyButton } from '../../ui/copy-button';
import { DatePicker } from '../../ui/date-picker';
import { Drawer } from '../../ui/drawer';
import { Dropdown, type Option } from '../../ui/dropdown';
import { FieldError } from '../../ui/field';
import { FileField } from '../../ui/file-field';
import { FormFooter } from '../../ui/form-footer';
import { Modal } from '../../ui/modal';
import { CurrencyInput, DecimalInput, NumericInput } from '../../ui/numeric-input';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { UploadProgress, useUploadProgress } from '../../ui/upload-progress';
import { Demo, Section } from './gallery-parts';

/** The gallery's dates are fixed so that people and the browser tests see the same calendar. */
export const GALLERY_TODAY = '2026-11-18';

const TEAMS: Option[] = [
  { label: 'Arsenal', value: 'ARS' },
  { label: 'Aston Villa', value: 'AVL' },
  { label: 'Chelsea', value: 'CHE' },
  { label: 'Liverpool', value: 'LIV' },
  { label: 'Manchester City', value: 'MCI' },
  { label: 'Manchester United', value: 'MUN' },
  { label: 'Newcastle United', value: 'NEW' },
  { label: 'Tottenham Hotspur', value: 'TOT' },
];
const COUNTRIES: Option[] = [
  { label: 'England', value: 'EN' },
  { label: 'France', value: 'FR' },
  { label: 'Germany', value: 'DE' },
  { label: 'Italy', value: 'IT' },
  { label: 'Netherlands', value: 'NL' },
  { label: 'Portugal', value: 'PT' },
  { label: 'Scotland', value: 'SC' },
  { label: 'Spain', value: 'ES' },
  { label: 'United Arab Emirates', value: 'AE' },
  { label: 'Wales', value: 'WL' },
];
const CURRENCIES: Option[] = [
  { label: 'GBP', value: 'GBP' },
  { label: 'EUR', value: 'EUR' },
  { label: 'USD', value: 'USD' },
  { label: 'AED', value: 'AED' },
];
const TRANSFER_BY: Option[] = [
  { label: 'Online', value: 'ONLINE' },
  { label: 'Cash', value: 'CASH' },
  { label: 'Cheque', value: 'CHEQUE' },
];
const SORT_BY: Option[] = [
  { label: 'Date', value: 'date' },
  { label: 'Match', value: 'match' },
  { label: 'Price', value: 'price' },
  { label: 'Quantity', value: 'quantity' },
  { label: 'Status', value: 'status' },
];

const sampleFile = (name: string, bytes: number) => new File([new Uint8Array(bytes)], name);

/** Every UI kit piece in its states, for people and for the browser tests. Development and e2e builds only. */
export default function GalleryPage() {
  return (
    <main className={css({ p: { base: '4', desktop: '6' }, maxWidth: '1200px', mx: 'auto' })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '1' })}>UI kit</h1>
      <p className={css({ color: 'fg.muted', mb: '6' })}>
        Every shared piece in its states. The calendars take {formatDate(GALLERY_TODAY)} as today.
      </p>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '8' })}>
        <DatePickers />
        <Dropdowns />
        <NumericInputs />
        <FileFields />
        <Overlays />
        <FormFooters />
        <CopyButtons />
        <Skeletons />
        <FieldErrors />
        <Basics />
      </div>
    </main>
  );
}

const note = css({ fontSize: 'sm', color: 'fg.muted' });

function DatePickers() {
  const [match, setMatch] = useState<string | null>(null);
  const [period, setPeriod] = useState<DateRangeValue | null>(null);
  const [window, setWindow] = useState<DateRangeValue | null>(null);
  const range = (r: DateRangeValue | null) => (r ? `${r.start} to ${r.end}` : 'nothing');
  return (
    <Section title="Date picker">
      <Demo title="Single, empty">
        <DatePicker label="Match date" today={GALLERY_TODAY} onChange={setMatch} />
        <p className={note}>Committed: {match ?? 'nothing'}</p>
      </Demo>
      <Demo title="Single, filled">
        <DatePicker label="Kick-off date" today={GALLERY_TODAY} defaultValue="2026-11-22" />
      </Demo>
      <Demo title="Range, empty">
        <DatePicker label="Report period" mode="range" today={GALLERY_TODAY} onChange={setPeriod} />
        <p className={note}>Committed: {range(period)}</p>
      </Demo>
      <Demo title="Range, bounded (10 to 25 Nov 2026)">
        <DatePicker
          label="Booking window"
          mode="range"
          today={GALLERY_TODAY}
          min="2026-11-10"
          max="2026-11-25"
          onChange={setWindow}
        />
        <p className={note}>Committed: {range(window)}</p>
      </Demo>
      <Demo title="Range, filled">
        <DatePicker
          label="Sales period"
          mode="range"
          today={GALLERY_TODAY}
          defaultValue={{ start: '2026-11-02', end: '2026-11-08' }}
        />
      </Demo>
      <Demo title="Date of birth (the calendar year two years ago)">
        <DatePicker label="Date of birth" today={GALLERY_TODAY} min="2024-01-01" max="2024-12-31" />
      </Demo>
      <Demo title="Error">
        <DatePicker label="Travel date" required today={GALLERY_TODAY} error="Select a travel date" />
      </Demo>
      <Demo title="Disabled">
        <DatePicker label="Settlement date" disabled today={GALLERY_TODAY} defaultValue="2026-12-01" />
      </Demo>
    </Section>
  );
}

/** A dropdown shown by a button, which opens itself a second after it appears (`autoOpen`). */
function AutoOpening() {
  const [shown, setShown] = useState(false);
  const [team, setTeam] = useState<string | null>(null);
  if (!shown) return <Button onClick={() => setShown(true)}>Show the dropdown</Button>;
  return <Dropdown label="Next match" autoOpen options={TEAMS} value={team} onChange={setTeam} />;
}

const BLOCKS: Option[] = ['101', '102', '112', 'Upper 7'].map((b) => ({ label: b, value: b }));

function Dropdowns() {
  const [country, setCountry] = useState<string | null>(null);
  const [currency, setCurrency] = useState<string | null>('GBP');
  const [teams, setTeams] = useState<string[]>([]);
  const [category, setCategory] = useState<string | null>(null);
  const [sort, setSort] = useState<string | null>(null);
  const [block, setBlock] = useState<string | null>('');
  return (
    <Section title="Dropdown">
      <Demo title="Searchable, empty">
        <Dropdown label="Country" options={COUNTRIES} value={country} onChange={setCountry} />
        <p className={note}>Value: {country ?? 'none'}</p>
      </Demo>
      <Demo title="Filled">
        <Dropdown label="Currency" options={CURRENCIES} value={currency} onChange={setCurrency} />
      </Demo>
      <Demo title="Multi-select with select all">
        <Dropdown label="Teams" multiple options={TEAMS} value={teams} onChange={setTeams} />
        <p className={note}>Values: {teams.length ? teams.join(', ') : 'none'}</p>
      </Demo>
      <Demo title="Opens itself after 1 second">
        <AutoOpening />
      </Demo>
      <Demo title="Select-only, type-ahead">
        <Dropdown label="Sort by" searchable={false} options={SORT_BY} value={sort} onChange={setSort} />
      </Demo>
      <Demo title="Required, error">
        <Dropdown
          label="Category"
          required
          options={TRANSFER_BY}
          value={category}
          onChange={setCategory}
          error={category ? null : 'Select a category'}
        />
      </Demo>
      <Demo title="Loading">
        <Dropdown label="City" loading options={[]} value={null} onChange={() => {}} />
      </Demo>
      <Demo title="Disabled">
        <Dropdown label="Stadium" disabled options={COUNTRIES} value="EN" onChange={() => {}} />
      </Demo>
      <Demo title="Free text with suggestions">
        <Dropdown freeText label="Block" options={BLOCKS} value={block} onChange={setBlock} />
      </Demo>
    </Section>
  );
}

function NumericInputs() {
  const [quantity, setQuantity] = useState('');
  const [gbp, setGbp] = useState<number | null>(null);
  const [aed, setAed] = useState<number | null>(123450);
  const [rate, setRate] = useState<number | null>(1250);
  const [price, setPrice] = useState<number | null>(0);
  const shown = (minor: number | null) => (minor === null ? 'none' : `${minor} minor units`);
  return (
    <Section title="Numeric inputs">
      <Demo title="Numeric">
        <NumericInput label="Quantity" value={quantity} onValueChange={setQuantity} />
        <p className={note}>Text: {quantity || 'empty'}</p>
      </Demo>
      <Demo title="Currency, empty">
        <CurrencyInput label="Deposit amount" currency="GBP" value={gbp} onValueChange={setGbp} />
        <p className={note}>Value: {shown(gbp)}</p>
      </Demo>
      <Demo title="Currency AED, filled">
        <CurrencyInput label="Amount in AED" currency="AED" value={aed} onValueChange={setAed} />
        <p className={note}>Value: {shown(aed)}</p>
      </Demo>
      <Demo title="Decimal">
        <DecimalInput label="Commission rate" value={rate} onValueChange={setRate} />
        <p className={note}>Value: {rate === null ? 'none' : `${rate} hundredths`}</p>
      </Demo>
      <Demo title="Currency, zero, error">
        <CurrencyInput
          label="Ticket price"
          required
          currency="EUR"
          value={price}
          onValueChange={setPrice}
          error={price ? null : 'Enter a price above zero'}
        />
      </Demo>
      <Demo title="Disabled">
        <CurrencyInput label="Wallet balance" currency="USD" disabled value={9876543} onValueChange={() => {}} />
      </Demo>
    </Section>
  );
}

const PDF_ONLY = { types: ['pdf'], maxMb: 5 };

function FileFields() {
  const [proof, setProof] = useState<File | null>(null);
  const [attachment, setAttachment] = useState<File | null>(null);
  const [tickets] = useState(() => sampleFile('tickets-block-112.pdf', 2_457_600));
  const [tickets2, setTickets2] = useState<File[]>([]);
  const [picked, setPicked] = useState('');
  return (
    <Section title="File field">
      <Demo title="Deposit proof (pdf, jpg, jpeg, png; 10 MB)">
        <FileField label="Deposit proof" rules={DEPOSIT_PROOF_RULES} file={proof} onFileChange={setProof} required />
      </Demo>
      <Demo title="Any type, 5 MB">
        <FileField label="Attachment" file={attachment} onFileChange={setAttachment} />
      </Demo>
      <Demo title="Filled, uploading">
        <FileField label="Ticket file" file={tickets} onFileChange={() => {}} progress={45} />
      </Demo>
      <Demo title="Error">
        <FileField label="Passport scan" required file={null} onFileChange={() => {}} error="Upload a passport scan" />
      </Demo>
      <Demo title="Disabled">
        <FileField label="Invoice" disabled file={null} onFileChange={() => {}} />
      </Demo>
      <Demo title="Several files (pdf)">
        <FileField multiple label="E-tickets" rules={PDF_ONLY} files={tickets2} onFilesChange={setTickets2} />
      </Demo>
      <Demo title="A list row's button">
        <FileField
          variant="button"
          multiple
          label="Upload tickets for BK-1001"
          rules={PDF_ONLY}
          files={[]}
          onFilesChange={(f) => setPicked(f.map((x) => x.name).join(', '))}
        />
        <output>Picked: {picked || 'none'}</output>
      </Demo>
      <Demo title="Upload progress">
        <UploadProgress progress={80} label="Uploading report.csv" />
      </Demo>
      <Demo title="Deposit proof, uploading (advance it by hand)">
        <UploadDemo />
      </Demo>
    </Section>
  );
}

/**
 * A stand-in for the browser's XMLHttpRequest under the real uploader (openapi/upload.ts): nothing is sent;
 * `advance` reports upload progress as the browser would, and the last step answers 200.
 */
class HandDrivenRequest {
  static latest: HandDrivenRequest | null = null;
  static readonly TOTAL = 3_145_728;
  readonly upload = new EventTarget();
  private readonly events = new EventTarget();
  status = 0;
  responseText = '';
  open() {}
  setRequestHeader() {}
  addEventListener(type: string, listener: EventListener) {
    this.events.addEventListener(type, listener);
  }
  send() {
    HandDrivenRequest.latest = this;
  }
  abort() {
    this.events.dispatchEvent(new Event('abort'));
  }
  advance(fraction: number) {
    const loaded = Math.round(fraction * HandDrivenRequest.TOTAL);
    this.upload.dispatchEvent(
      new ProgressEvent('progress', { lengthComputable: true, loaded, total: HandDrivenRequest.TOTAL }),
    );
    if (fraction >= 1) {
      this.status = 200;
      this.responseText = JSON.stringify({ success: true, data: {} });
      this.events.dispatchEvent(new Event('load'));
    }
  }
}

const uploadByHand = createUploader({ XMLHttpRequest: HandDrivenRequest as unknown as typeof XMLHttpRequest });
const DEMO_STEPS = [0.42, 0.84, 1];

/** The deposit proof as the deposit form will upload it: the bar follows the uploader's onProgress. */
function UploadDemo() {
  const [proof, setProof] = useState<File | null>(() => sampleFile('deposit-proof.pdf', HandDrivenRequest.TOTAL));
  const progress = useUploadProgress();
  const [done, setDone] = useState(false);
  const step = useRef(0);
  const start = () => {
    if (!proof) return;
    const form = new FormData();
    form.append('proof', proof);
    step.current = 0;
    setDone(false);
    progress.start();
    void uploadByHand('/api/upload-pop', form, { onProgress: progress.onProgress })
      .then(() => setDone(true))
      .finally(progress.finish);
  };
  const advance = () => {
    HandDrivenRequest.latest?.advance(DEMO_STEPS[step.current] ?? 1);
    step.current += 1;
  };
  const uploading = progress.percent !== null;
  return (
    <>
      <FileField
        label="Deposit proof (demo)"
        rules={DEPOSIT_PROOF_RULES}
        file={proof}
        onFileChange={setProof}
        progress={progress.percent}
      />
      <div className={css({ display: 'flex', gap: '2' })}>
        <Button tone="secondary" onClick={start} disabled={uploading || !proof}>
          Start upload
        </Button>
        <Button tone="secondary" onClick={advance} disabled={!uploading}>
          Advance upload
        </Button>
      </div>
      {done ? <p role="status">{proof?.name} uploaded</p> : null}
    </>
  );
}

function Overlays() {
  const [drawer, setDrawer] = useState(false);
  const [modal, setModal] = useState(false);
  const [outside, setOutside] = useState(false);
  const [amount, setAmount] = useState<number | null>(null);
  const [currency, setCurrency] = useState<string | null>('GBP');
  const [transferBy, setTransferBy] = useState<string | null>(null);
  const valid = Boolean(amount && amount > 0 && currency && transferBy);
  return (
    <Section title="Drawer and modal">
      <Demo title="Drawer (opens after 50 ms, closes in 300 ms)">
        <Button onClick={() => setDrawer(true)}>Open drawer</Button>
        <Drawer
          open={drawer}
          onClose={() => setDrawer(false)}
          title="Top up your SB pay Account"
          footer={<FormFooter valid={valid} onCancel={() => setDrawer(false)} onSubmit={() => setDrawer(false)} />}
        >
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
            <CurrencyInput
              label="Deposit amount"
              required
              currency={currency ?? 'GBP'}
              value={amount}
              onValueChange={setAmount}
            />
            <Dropdown label="Currency" required options={CURRENCIES} value={currency} onChange={setCurrency} />
            <Dropdown
              label="Payment transfer by"
              required
              options={TRANSFER_BY}
              value={transferBy}
              onChange={setTransferBy}
            />
            <DatePicker label="Transfer date" today={GALLERY_TODAY} />
          </div>
        </Drawer>
      </Demo>
      <Demo title="Modal">
        <Button tone="secondary" onClick={() => setModal(true)}>
          Open modal
        </Button>
        <Modal
          open={modal}
          onClose={() => setModal(false)}
          title="Delete listing"
          footer={
            <FormFooter valid onCancel={() => setModal(false)} onSubmit={() => setModal(false)} submitLabel="Delete" />
          }
        >
          <p>The listing goes off sale at once. An outside click does not close this one.</p>
        </Modal>
      </Demo>
      <Demo title="Modal that closes on an outside click">
        <Button tone="secondary" onClick={() => setOutside(true)}>
          Open dismissible modal
        </Button>
        <Modal open={outside} onClose={() => setOutside(false)} title="Support" closeOnOutsideClick>
          <p>Click outside, press Escape or use Close.</p>
        </Modal>
      </Demo>
    </Section>
  );
}

function FormFooters() {
  const [name, setName] = useState('');
  const [submitting, setSubmitting] = useState(false);
  return (
    <Section title="Form footer">
      <Demo title="Invalid">
        <FormFooter valid={false} onCancel={() => {}} onSubmit={() => {}} />
      </Demo>
      <Demo title="Submitting">
        <FormFooter valid submitting onCancel={() => {}} onSubmit={() => {}} />
      </Demo>
      <Demo title="Valid once filled">
        <form
          className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
          onSubmit={(e) => {
            e.preventDefault();
            setSubmitting(true);
            setTimeout(() => setSubmitting(false), 1500);
          }}
        >
          <TextField label="Listing name" required value={name} onChange={(e) => setName(e.target.value)} />
          <FormFooter valid={name.trim() !== ''} submitting={submitting} onCancel={() => setName('')} />
        </form>
      </Demo>
    </Section>
  );
}

function CopyRow({ label, value }: { label: string; value: string | null }) {
  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: '3', justifyContent: 'space-between' })}>
      <div className={css({ minWidth: 0 })}>
        <div className={note}>{label}</div>
        <div className={css({ fontWeight: 'medium', wordBreak: 'break-all' })}>{value ?? '-'}</div>
      </div>
      {value ? <CopyButton value={value} label={label} /> : null}
    </div>
  );
}

function CopyButtons() {
  return (
    <Section title="Copy button">
      <Demo title="Bank transfer details">
        <CopyRow label="Account Name" value="SB Pay Client Account" />
        <CopyRow label="IBAN" value="GB29NWBK60161331926819" />
        <CopyRow label="Swift" value={null} />
        <CopyRow label="Reference" value="SBP-104233" />
      </Demo>
    </Section>
  );
}

function Skeletons() {
  return (
    <Section title="Skeleton">
      <Demo title="Loading bank details">
        <Loading label="Loading bank details">
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
              <Skeleton width="40%" height="12px" />
              <Skeleton height="18px" />
            </div>
          ))}
        </Loading>
      </Demo>
      <Demo title="Loading a card">
        <Loading label="Loading listing">
          <div className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
            <Skeleton width="48px" height="48px" radius="pill" />
            <div className={css({ flex: 1, display: 'flex', flexDirection: 'column', gap: '2' })}>
              <Skeleton width="70%" />
              <Skeleton width="45%" />
            </div>
          </div>
        </Loading>
      </Demo>
    </Section>
  );
}

function FieldErrors() {
  const [showErrors, setShowErrors] = useState(false);
  const [amount, setAmount] = useState<number | null>(null);
  return (
    <Section title="Field error">
      <Demo title="Shown only when there is an error and showing errors is on">
        <label className={css({ display: 'flex', gap: '2', alignItems: 'center', fontSize: 'sm' })}>
          <input type="checkbox" checked={showErrors} onChange={(e) => setShowErrors(e.target.checked)} />
          Show errors
        </label>
        <CurrencyInput
          label="Payout amount"
          required
          currency="GBP"
          value={amount}
          onValueChange={setAmount}
          showErrors={showErrors}
          error={amount ? null : 'Enter the payout amount'}
        />
        <p className={note}>
          Amount: {amount === null ? 'none' : formatMinorUnits(amount)}. A lone FieldError with showErrors on:
        </p>
        <FieldError error="This text is red" showErrors />
      </Demo>
    </Section>
  );
}

function Basics() {
  const [email, setEmail] = useState('sam@example.com');
  return (
    <Section title="Buttons and text fields">
      <Demo title="Buttons">
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
          <Button>Primary</Button>
          <Button tone="secondary">Secondary</Button>
          <Button tone="ghost">Ghost</Button>
          <Button disabled>Disabled</Button>
          <Button busy>Saving</Button>
        </div>
      </Demo>
      <Demo title="Text fields">
        <TextField label="First name" placeholder="Sam" />
        <TextField label="Email address" value={email} onChange={(e) => setEmail(e.target.value)} />
        <TextField label="Last name" required error="Enter your last name" />
        <TextField label="User token" disabled value="u-1234" readOnly />
      </Demo>
    </Section>
  );
}
