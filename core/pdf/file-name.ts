/** The file name of a document's PDF: its number, with anything but `[A-Za-z0-9_.-]` made `_`. */
export function pdfFilename(doc: { number: string }): string {
  return `${doc.number.replace(/[^A-Za-z0-9_.-]/g, '_')}.pdf`;
}
