import { css } from 'styled-system/css';

/** Every UI kit piece in its states, for people and for the browser tests. Development and e2e builds only. */
export default function GalleryPage() {
  return (
    <main className={css({ p: '6' })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>UI kit</h1>
    </main>
  );
}
