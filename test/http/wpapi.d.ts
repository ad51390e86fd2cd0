// wpapi ships no types; the test drives it as its users do, through its fluent API.
declare module 'wpapi' {
  const WPAPI: any;
  export default WPAPI;
}
