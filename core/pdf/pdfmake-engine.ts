// One pdfmake set up for a whole process (a render worker): the per-process work that a naive
// `createPdf` per document repeats is done here once.
//
// Where the time of a naive render goes (measured with --cpu-prof on a one-page invoice, ~90 ms): about
// three quarters is fontkit decoding the font's GSUB/GPOS tables, lazily and again for every document,
// because pdfkit calls `fontkit.create(bytes)` once per document and a fresh font object starts with
// empty caches. Giving pdfkit the same parsed font for the same bytes keeps those tables decoded across
// documents (one-page invoice: ~90 ms → ~13 ms) and yields byte-identical PDFs (each document still gets
// its own subset). That is done by handing pdfkit a fontkit whose `create` remembers its results, through
// Node's documented module cache, before pdfkit is first loaded. Should a later pdfkit obtain fonts some
// other way, `fontSharing` reads false and rendering stays correct, only slower.
import { readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import type { TDocumentDefinitions, TFontDictionary } from 'pdfmake/interfaces.js';
import { FONT_FAMILY, fontFiles, STANDARD_FONT_NAMES, STANDARD_FONTS } from './fonts.ts';
import { TABLE_LAYOUTS } from './table-layouts.ts';

type Pdfmake = typeof import('pdfmake');
interface VirtualFs {
  writeFileSync(name: string, content: Buffer): void;
}
type Fontkit = { create(bytes: Uint8Array, postscriptName?: string): unknown; [k: string]: unknown };

export interface PdfmakeEngine {
  /** Renders a definition of plain data (dates in `info` may be ISO strings) to PDF bytes. */
  render(definition: TDocumentDefinitions): Promise<Buffer>;
  /**
   * Whether pdfkit obtains its fonts through the remembering fontkit (see the note at the top of this
   * file); meaningful once something has been rendered.
   */
  fontSharing(): boolean;
}

let engine: PdfmakeEngine | undefined;

/** The process's engine, set up on first call. Must run before anything else in the process loads pdfkit. */
export function pdfmakeEngine(): PdfmakeEngine {
  engine ??= createEngine();
  return engine;
}

function createEngine(): PdfmakeEngine {
  const require = createRequire(import.meta.url);
  const pdfmakeRequire = createRequire(require.resolve('pdfmake/package.json'));
  const pdfkitRequire = createRequire(pdfmakeRequire.resolve('pdfkit'));
  const fontkitId = pdfkitRequire.resolve('fontkit');
  let viaMemo = 0;
  if (!require.cache[pdfmakeRequire.resolve('pdfkit')] && !require.cache[fontkitId]) {
    const fontkit = pdfkitRequire('fontkit') as Fontkit;
    const parsed = new WeakMap<Uint8Array, Map<string, unknown>>();
    const sharing: Fontkit = {
      ...fontkit,
      create(bytes, postscriptName) {
        viaMemo++;
        let byName = parsed.get(bytes);
        if (!byName) parsed.set(bytes, (byName = new Map()));
        let font = byName.get(postscriptName ?? '') as { _glyphs?: Record<number, unknown> } | undefined;
        if (font === undefined) byName.set(postscriptName ?? '', (font = fontkit.create(bytes, postscriptName) as object));
        // fontkit keeps each glyph it made with the characters it was first made for, and pdfkit writes a
        // document's text layer (what copy and search read) from those characters. Shared across documents,
        // a glyph that Latin Z and Greek Ζ have in common, first made for Ζ, made every later "Zwischensumme"
        // read "Ζwischensumme". Each document starts with no glyphs made; the decoded tables stay.
        else if (font._glyphs) font._glyphs = {};
        return font;
      },
    };
    const mod = new Module(fontkitId);
    mod.filename = fontkitId;
    mod.loaded = true;
    mod.exports = sharing;
    require.cache[fontkitId] = mod;
  }
  const pdfmake = pdfmakeRequire('./js/index.js') as Pdfmake & { virtualfs: VirtualFs };

  // Font bytes live in pdfmake's virtual file system: read from disk once, and the same Buffer object
  // every time, which is what lets the fontkit above recognise a font it has parsed.
  const fonts: TFontDictionary = { ...STANDARD_FONTS };
  const family: Record<string, string> = {};
  for (const [style, path] of Object.entries(fontFiles())) {
    const name = `fonts/${FONT_FAMILY}-${style}.ttf`;
    pdfmake.virtualfs.writeFileSync(name, readFileSync(path));
    family[style] = name;
  }
  fonts[FONT_FAMILY] = family;
  pdfmake.setFonts(fonts);
  pdfmake.setTableLayouts(TABLE_LAYOUTS);
  // Definitions can come from plugins (the billing_pdf_document filter): no URL is fetched and no file
  // is read on their behalf. Images travel as data: URLs, which neither policy sees.
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy((path) => STANDARD_FONT_NAMES.has(path));

  return {
    async render(definition) {
      return pdfmake.createPdf(reviveDates(definition)).getBuffer();
    },
    fontSharing: () => viaMemo > 0,
  };
}

/** JSON has no dates: ISO strings in `info.creationDate` / `info.modDate` become Dates for pdfkit. */
function reviveDates(definition: TDocumentDefinitions): TDocumentDefinitions {
  const info = definition.info as Record<string, unknown> | undefined;
  if (!info) return definition;
  const revived: Record<string, unknown> = { ...info };
  for (const key of ['creationDate', 'modDate']) {
    if (typeof revived[key] === 'string') revived[key] = new Date(revived[key] as string);
  }
  return { ...definition, info: revived };
}
