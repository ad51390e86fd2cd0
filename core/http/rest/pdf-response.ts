import { pdfFilename } from '../../pdf/file-name.ts';
import type { RenderedPdf } from '../../pdf/pdf-renderer.ts';
import { RestResponse } from './route.ts';

/** A PDF as a REST answer: `inline` with the document's file name and its ETag; 304 when the client holds these bytes. */
export function pdfResponse(pdf: RenderedPdf, ifNoneMatch: string | undefined, number: string): RestResponse {
  const headers: Record<string, string> = { ETag: pdf.etag, 'Content-Disposition': `inline; filename="${pdfFilename({ number })}"` };
  if (
    ifNoneMatch &&
    ifNoneMatch
      .split(',')
      .map((t) => t.trim())
      .includes(pdf.etag)
  ) {
    return new RestResponse(null, 304, headers, { contentType: 'application/pdf', body: Buffer.alloc(0) });
  }
  return new RestResponse(null, 200, headers, { contentType: 'application/pdf', body: pdf.bytes });
}
