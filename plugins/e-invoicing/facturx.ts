// Factur-X / ZUGFeRD: the invoice's PDF, rendered as PDF/A-3b by the core (pdfkit embeds every font and
// adds the sRGB output intent), with the CII attached as `factur-x.xml` (AFRelationship Alternative, in
// the catalog's AF array) and the XMP metadata Factur-X requires (pdfaid part 3 B, the fx: schema and
// its PDF/A extension schema description). pdf-lib does the attaching; nothing is re-rendered.
import { AFRelationship, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import type { EmbeddedFile } from './ubl.ts';
import { escapeXml } from './xml.ts';

export const FACTURX_FILENAME = 'factur-x.xml';

export interface FacturXInfo {
  number: string;
  /** `Y-m-d`: the file's dates, so the same invoice always gives the same bytes. */
  issueDate: string;
  seller: string;
  title: string;
}

/** What the core's renderer is asked to add to the definition: the PDF/A-3b subset on PDF 1.7. */
export const PDFA_DEFINITION = { version: '1.7', subset: 'PDF/A-3b' } as const;

/**
 * Attaches `cii` to a PDF/A-3b rendering of the invoice and writes the Factur-X metadata; the invoice's
 * own attached files follow as supplements (PDF/A-3 takes files of any type, each in the AF array).
 */
export async function facturXPdf(pdfa: Uint8Array, cii: string, info: FacturXInfo, files: readonly EmbeddedFile[] = []): Promise<Buffer> {
  const doc = await PDFDocument.load(pdfa, { updateMetadata: false });
  const date = new Date(`${info.issueDate.slice(0, 10)}T00:00:00.000Z`);
  const title = info.title;
  const producer = 'billing e-invoicing (pdfmake, pdf-lib)';
  doc.setTitle(title);
  doc.setAuthor(info.seller);
  doc.setSubject(`Invoice ${info.number}`);
  doc.setCreator(info.seller);
  doc.setProducer(producer);
  doc.setCreationDate(date);
  doc.setModificationDate(date);

  await doc.attach(Buffer.from(cii, 'utf8'), FACTURX_FILENAME, {
    mimeType: 'text/xml',
    description: 'Factur-X invoice (CII D16B, EN 16931 profile)',
    creationDate: date,
    modificationDate: date,
    afRelationship: AFRelationship.Alternative,
  });
  const names = new Set([FACTURX_FILENAME]);
  for (const f of files) {
    // names are the keys of the PDF's embedded files: two alike would hide one
    let name = f.filename;
    for (let n = 2; names.has(name); n++) name = f.filename.replace(/(\.[^.]*)?$/, ` (${n})$1`);
    names.add(name);
    await doc.attach(f.body, name, {
      mimeType: f.contentType,
      description: 'Supporting document',
      creationDate: date,
      modificationDate: date,
      afRelationship: AFRelationship.Supplement,
    });
  }

  const xmp = Buffer.from(xmpMetadata({ title, author: info.seller, subject: `Invoice ${info.number}`, producer, date }), 'utf8');
  const stream = PDFRawStream.of(doc.context.obj({ Type: 'Metadata', Subtype: 'XML', Length: xmp.length }), xmp);
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
  return Buffer.from(await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
}

function xmpMetadata(m: { title: string; author: string; subject: string; producer: string; date: Date }): string {
  const when = m.date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const e = escapeXml;
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
   <pdfaid:part>3</pdfaid:part>
   <pdfaid:conformance>B</pdfaid:conformance>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${e(m.title)}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>${e(m.author)}</rdf:li></rdf:Seq></dc:creator>
   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">${e(m.subject)}</rdf:li></rdf:Alt></dc:description>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
   <pdf:Producer>${e(m.producer)}</pdf:Producer>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
   <xmp:CreatorTool>${e(m.author)}</xmp:CreatorTool>
   <xmp:CreateDate>${when}</xmp:CreateDate>
   <xmp:ModifyDate>${when}</xmp:ModifyDate>
   <xmp:MetadataDate>${when}</xmp:MetadataDate>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#">
   <fx:DocumentType>INVOICE</fx:DocumentType>
   <fx:DocumentFileName>${FACTURX_FILENAME}</fx:DocumentFileName>
   <fx:Version>1.0</fx:Version>
   <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"
    xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
   <pdfaExtension:schemas>
    <rdf:Bag>
     <rdf:li rdf:parseType="Resource">
      <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
      <pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>
      <pdfaSchema:prefix>fx</pdfaSchema:prefix>
      <pdfaSchema:property>
       <rdf:Seq>
${[
  ['DocumentFileName', 'name of the embedded XML invoice file'],
  ['DocumentType', 'INVOICE'],
  ['Version', 'The actual version of the Factur-X XML schema'],
  ['ConformanceLevel', 'The conformance level of the embedded Factur-X data'],
]
  .map(
    ([name, description]) => `        <rdf:li rdf:parseType="Resource">
         <pdfaProperty:name>${name}</pdfaProperty:name>
         <pdfaProperty:valueType>Text</pdfaProperty:valueType>
         <pdfaProperty:category>external</pdfaProperty:category>
         <pdfaProperty:description>${description}</pdfaProperty:description>
        </rdf:li>`,
  )
  .join('\n')}
       </rdf:Seq>
      </pdfaSchema:property>
     </rdf:li>
    </rdf:Bag>
   </pdfaExtension:schemas>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}
