import { describe, expect, it } from '@jest/globals';
import { pngBytes, pngDataUrl } from '../../test/quote-signatures/png-fixture.ts';
import { checkSignaturePng } from './png.ts';

describe('checkSignaturePng', async () => {
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
    expect(await checkSignaturePng(pngDataUrl(pngBytes(10, 1200)))).toMatchObject({ ok: false, reason: expect.stringMatching(/^dimensions/) });
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
});
