// The fonts every PDF embeds. Noto Sans (Google's, SIL OFL 1.1) covers Latin with its extended ranges,
// Greek and Cyrillic in every weight; it comes from the npm registry (@expo-google-fonts/noto-sans ships
// the static TTF files and nothing that runs at install), so `npm ci` brings it to every machine.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const FONT_PACKAGE = '@expo-google-fonts/noto-sans';

/** The family name definitions use (`defaultStyle.font`). */
export const FONT_FAMILY = 'NotoSans';

export type FontStyle = 'normal' | 'bold' | 'italics' | 'bolditalics';

const FILES: Record<FontStyle, string> = {
  normal: '400Regular/NotoSans_400Regular.ttf',
  bold: '700Bold/NotoSans_700Bold.ttf',
  italics: '400Regular_Italic/NotoSans_400Regular_Italic.ttf',
  bolditalics: '700Bold_Italic/NotoSans_700Bold_Italic.ttf',
};

/** Absolute paths of the four TTF files of the family. */
export function fontFiles(): Record<FontStyle, string> {
  const dir = dirname(require.resolve(`${FONT_PACKAGE}/package.json`));
  return Object.fromEntries(Object.entries(FILES).map(([style, file]) => [style, join(dir, file)])) as Record<FontStyle, string>;
}

/** Versions that change the bytes a definition renders to; part of every cache key and ETag. */
export function rendererFingerprint(): string {
  const version = (pkg: string) => (require(`${pkg}/package.json`) as { version: string }).version;
  return `pdfmake@${version('pdfmake')}+${FONT_PACKAGE}@${version(FONT_PACKAGE)}`;
}

/**
 * The PDF standard fonts, which need no file (Latin-1 only: no Greek or Cyrillic). They are registered
 * too so that a `billing_pdf_document` filter may use them; pdfmake passes their names through its local
 * file access policy, which therefore admits exactly these names.
 */
export const STANDARD_FONTS = {
  Helvetica: { normal: 'Helvetica', bold: 'Helvetica-Bold', italics: 'Helvetica-Oblique', bolditalics: 'Helvetica-BoldOblique' },
  Times: { normal: 'Times-Roman', bold: 'Times-Bold', italics: 'Times-Italic', bolditalics: 'Times-BoldItalic' },
  Courier: { normal: 'Courier', bold: 'Courier-Bold', italics: 'Courier-Oblique', bolditalics: 'Courier-BoldOblique' },
} as const satisfies Record<string, Record<FontStyle, string>>;

export const STANDARD_FONT_NAMES: ReadonlySet<string> = new Set([
  ...Object.values(STANDARD_FONTS).flatMap((f) => Object.values(f)),
  'Symbol',
  'ZapfDingbats',
]);
