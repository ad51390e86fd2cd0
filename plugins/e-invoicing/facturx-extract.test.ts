import { describe, expect, it } from '@jest/globals';
import { selfReferencingPdf, wideNameTreePdf } from '../../test/security/hostile-files.ts';
import { extractFacturX, MAX_TREE_NODES } from './facturx-extract.ts';

// The walk itself, on this thread (the reader also runs it in a bounded worker): a tree whose nodes list
// each other as kids was walked kids^16 times (45 s for three nodes, hours for four).
describe('the attachment tree walk', () => {
  it('visits each node once: a tree of self-referencing nodes is done at once', async () => {
    for (const n of [3, 4, 40]) {
      const start = performance.now();
      await expect(extractFacturX(selfReferencingPdf(n))).rejects.toMatchObject({ code: 'billing_einvoice_unreadable' });
      expect(performance.now() - start).toBeLessThan(2000);
    }
  });

  it('stops at a counted budget of entries', async () => {
    await expect(extractFacturX(wideNameTreePdf(MAX_TREE_NODES + 10))).rejects.toMatchObject({
      message: expect.stringMatching(/more than 10000 entries/),
    });
    await expect(extractFacturX(wideNameTreePdf(100))).rejects.toMatchObject({ message: expect.stringMatching(/no factur-x\.xml/) });
  });
});
