import type { AdminManifest } from './build.ts';
import type { AdminScreens } from './screens.ts';

export interface AdminServices {
  /** Every loaded unit's screens (they declare them as `screens`). */
  screens: AdminScreens;
  /** The browser app's bundle, once built or found current at start. */
  assets: { manifest: AdminManifest | null };
}
