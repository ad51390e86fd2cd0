// mjml 5 ships no types. Only what the mail module uses: mjml2html, which returns a Promise since 5.
declare module 'mjml' {
  export interface MjmlError {
    line: number;
    message: string;
    tagName: string;
    formattedMessage: string;
  }
  export interface MjmlResult {
    html: string;
    errors: MjmlError[];
  }
  export interface MjmlOptions {
    validationLevel?: 'strict' | 'soft' | 'skip';
    keepComments?: boolean;
    minify?: boolean;
    beautify?: boolean;
    fonts?: Record<string, string>;
    [option: string]: unknown;
  }
  export default function mjml2html(input: string, options?: MjmlOptions): Promise<MjmlResult>;
}
