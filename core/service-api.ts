/**
 * The typed in-process API (contract §2): what REST, AJAX, the CLI and plugins all call, so every path
 * runs the same code. Each domain module adds its service here as it lands.
 */
export interface ServiceApi {
  [service: string]: unknown;
}
