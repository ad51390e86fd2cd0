// cleanPngNow as a bounded worker runs it (see clean-png.ts).
import { cleanPngNow, type PngBounds, type PngCheck } from './png.ts';

export default function cleanInWorker(input: { bytes: Uint8Array; bounds: PngBounds }): PngCheck {
  return cleanPngNow(input.bytes, input.bounds);
}
