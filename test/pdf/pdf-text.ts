// Text of a rendered PDF, read back with PDF.js (unpdf's build): what a reader's viewer would find.
import { extractText } from 'unpdf';

export async function pdfText(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  // A copy: PDF.js may take ownership of the buffer it is given.
  const { text, totalPages } = await extractText(new Uint8Array(bytes), { mergePages: true });
  return { text: text.replace(/\s+/g, ' '), pages: totalPages };
}
