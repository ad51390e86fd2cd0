import { afterAll, describe, expect, it } from '@jest/globals';
import pngjs from 'pngjs';
import { closeBoundedWorkers } from '../../core/workers/bounded-worker.ts';
import { pngBytes, pngDataUrl } from '../../test/quote-signatures/png-fixture.ts';
import { badFilterPng, duplicateHeaderPng, hugePng } from '../../test/security/hostile-files.ts';
import { checkSignaturePng } from './png.ts';

afterAll(() => closeBoundedWorkers());

describe('checkSignaturePng', () => {
  it('accepts a canvas-sized RGBA PNG', async () => {
    const check = await checkSignaturePng(pngDataUrl(pngBytes(600, 180)));
    expect(check).toMatchObject({ ok: true, width: 600, height: 180 });
  });

  it('refuses what is not a PNG data URL', async () => {
    expect(await checkSignaturePng('data:image/jpeg;base64,/9j/4AAQSkZJRg==')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/data:image\/png/),
    });
    expect(await checkSignaturePng('hello')).toMatchObject({ ok: false });
    expect(
      await checkSignaturePng(`data:image/png;base64,${Buffer.from('GIF89a not a png at all, really not').toString('base64')}`),
    ).toMatchObject({
      ok: false,
      reason: 'not a PNG image',
    });
  });

  it('refuses a file over 200 KB before decoding it', async () => {
    const big = pngBytes(300, 200, { noise: true });
    expect(big.length).toBeGreaterThan(200 * 1024);
    expect(await checkSignaturePng(pngDataUrl(big))).toMatchObject({ ok: false, reason: 'larger than 200 KB' });
  });

  it('refuses dimensions outside the pad’s range', async () => {
    expect(await checkSignaturePng(pngDataUrl(pngBytes(3000, 10)))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^dimensions 3000×10/),
    });
    expect(await checkSignaturePng(pngDataUrl(pngBytes(10, 1200)))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^dimensions/),
    });
  });

  it('refuses damaged and truncated files', async () => {
    const good = pngBytes(100, 40);
    const damaged = Buffer.from(good);
    damaged[40] = damaged[40]! ^ 0xff; // inside IDAT: its CRC no longer matches
    expect(await checkSignaturePng(pngDataUrl(damaged))).toMatchObject({ ok: false, reason: expect.stringMatching(/damaged/) });
    expect(await checkSignaturePng(pngDataUrl(good.subarray(0, good.length - 12)))).toMatchObject({ ok: false });
    expect(await checkSignaturePng(pngDataUrl(Buffer.concat([good, Buffer.from('trailing')])))).toMatchObject({ ok: false });
  });

  it('refuses image data that does not decode to the header’s size (a bomb stops early)', async () => {
    // a header claiming 100×40 around the pixels of a 1000×1000 image
    const small = pngBytes(100, 40);
    const bomb = pngBytes(1000, 1000);
    const header = small.subarray(8, 8 + 25);
    const rest = bomb.subarray(8 + 25);
    expect(await checkSignaturePng(pngDataUrl(Buffer.concat([small.subarray(0, 8), header, rest])))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/does not decode/),
    });
  });

  it('refuses a second header, a bad row filter and huge declared dimensions', async () => {
    expect(await checkSignaturePng(pngDataUrl(duplicateHeaderPng()))).toMatchObject({
      ok: false,
      reason: 'a PNG with more than one header',
    });
    expect(await checkSignaturePng(pngDataUrl(badFilterPng()))).toMatchObject({ ok: false, reason: expect.stringMatching(/filter/) });
    expect(await checkSignaturePng(pngDataUrl(hugePng()))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^dimensions 100000×100000/),
    });
  });

  it('keeps only the image, encoded again: nothing else the file carried', async () => {
    const [sig, ...chunks] = [pngBytes(120, 40).subarray(0, 8), pngBytes(120, 40).subarray(8)];
    // a text chunk with a payload, before the image data
    const text = Buffer.from('tEXtComment\0<script>alert(1)</script>', 'latin1');
    const len = Buffer.alloc(4);
    len.writeUInt32BE(text.length - 4);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE((await import('node:zlib')).crc32(text));
    const withText = Buffer.concat([sig!, chunks[0]!.subarray(0, 25), len, text, crc, chunks[0]!.subarray(25)]);
    const check = await checkSignaturePng(pngDataUrl(withText));
    if (!check.ok) throw new Error(check.reason);
    expect(check.bytes.includes('script')).toBe(false);
    const decoded = pngjs.PNG.sync.read(check.bytes);
    expect([decoded.width, decoded.height]).toEqual([120, 40]);
    expect(decoded.data.equals(pngjs.PNG.sync.read(pngBytes(120, 40)).data)).toBe(true);
  });
});
